/**
 * What a probe yields on the data, for hovers and CodeLens ("movie_binary: 4,500 questions from 1,500
 * rows, 3 skipped"): eligible rows, skip counts by reason, questions per row, and a few sample questions.
 */
import type { SpecModel } from '../spec/model.js';
import type { LoadedData } from '../data/types.js';
import type { Question } from './question.js';
import { compileProbe, generateQuestions } from './generate.js';
import type { PlanProblem, SkipReason } from './plan.js';

export interface ProbeSummary {
    probe: string;
    rows: number;
    eligible: number;
    skipped: Record<SkipReason, number>;
    /** Zero-shot questions per eligible row (phrasings or stems). */
    questionsPerRow: number;
    /** The first few questions, zero-shot. */
    samples: Question[];
}

/** Undefined when the probe does not exist or cannot generate (its diagnostics say why). */
export function summarizeProbe(spec: SpecModel, data: LoadedData, name: string, samples = 3): ProbeSummary | undefined {
    const probe = spec.probes.find(p => p.name === name);
    const problems: PlanProblem[] = [];
    const plan = probe ? compileProbe(spec, data, probe, problems) : undefined;
    if (!plan) return undefined;
    const skipped: Record<SkipReason, number> = { null: 0, violating: 0, dangling: 0, cycle: 0, invalid: 0 };
    const rows = new Int32Array(plan.scope.slots.length);
    const total = plan.scope.slots[0]!.table.rowCount;
    let eligible = 0;
    let perRow = 0;
    for (let row = 0; row < total; row++) {
        const reason = plan.bind(row, rows);
        const items = reason ?? plan.items(rows);
        if (typeof items === 'string') { skipped[items]++; continue; }
        eligible++;
        perRow ||= items.length;
    }
    return {
        probe: name, rows: total, eligible, skipped, questionsPerRow: perRow,
        samples: [...generateQuestions(spec, data, { probe: name, limit: samples }).questions],
    };
}
