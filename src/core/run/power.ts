/**
 * Power before a run (`halluprobe estimate --power`): for the questions a suite would ask, per family and probe, the
 * smallest difference between two models or variants that a paired comparison (`compare`, McNemar's test at 5 %)
 * detects with 80 % power, and how many questions a target difference needs. No model is called.
 *
 * A comparison is made per report group (probe · phrasing · variant), so a group's questions are what the power is
 * about. Power depends on the share of questions the two sides answer differently (discordant): unknown before any
 * run, it defaults to 0.5 (two independent sides at 50 %, the conservative case); a `compare` of earlier runs
 * reports the share it saw.
 */
import { coreOf } from '../probes/registry.js';
import { questionsNeeded, smallestDetectable, type PowerAssumptions } from '../verify/paired.js';
import { previewSpec, type PreviewBlocked, type PreviewRequest } from './preview.js';

interface ProbePower {
    kind: string;
    probe: string;
    /** Report groups (phrasing × variant) and the questions of the smallest and largest. */
    groups: number;
    questions: { min: number; max: number };
    /** Distinct rows its questions ask about (phrasings of one row share it). */
    rows: number;
    /** The smallest detectable difference with the smallest group's questions (null: none reaches 80 % power). */
    detectable: number | null;
    /** Questions per group the target difference needs. */
    needed: number;
}

export interface SuitePower {
    blocked?: undefined;
    alpha: number;
    power: number;
    discordant: number;
    difference: number;
    probes: ProbePower[];
}

export interface PowerRequest extends PreviewRequest, PowerAssumptions {
    /** The difference to detect (default 0.05). */
    difference?: number;
}

export async function suitePower(req: PowerRequest): Promise<SuitePower | PreviewBlocked> {
    const { alpha = 0.05, power = 0.8, discordant = 0.5, difference = 0.05, ...preview } = req;
    const p = await previewSpec(preview);
    if (p.blocked) return p;
    const probes = new Map<string, { kind: string; groups: Map<string, number>; rows: Set<string> }>();
    for (const q of p.questions) {
        if (!coreOf(q.kind).measured) continue;
        let e = probes.get(q.probe);
        if (!e) probes.set(q.probe, (e = { kind: q.kind, groups: new Map(), rows: new Set() }));
        const group = `${q.phrasing}\u0000${q.variantId ?? q.variant}`;
        e.groups.set(group, (e.groups.get(group) ?? 0) + 1);
        e.rows.add([q.entity.relation, ...q.entity.key].join('\u0000'));
    }
    const o = { alpha, power, discordant };
    const rows: ProbePower[] = [...probes]
        .map(([probe, e]) => {
            const sizes = [...e.groups.values()];
            const min = Math.min(...sizes);
            return {
                kind: e.kind,
                probe,
                groups: sizes.length,
                questions: { min, max: Math.max(...sizes) },
                rows: e.rows.size,
                detectable: smallestDetectable(min, o),
                needed: questionsNeeded(difference, o),
            };
        })
        .sort((x, y) => x.kind.localeCompare(y.kind) || x.probe.localeCompare(y.probe));
    return { alpha, power, discordant, difference, probes: rows };
}

const pc = (x: number) => `${(x * 100).toFixed(1)} pp`;

/** The power account in words, one line per family and probe (every face prints these). */
export function powerLines(s: SuitePower): string[] {
    const out = [
        `Paired comparison of two models or variants per report group (McNemar, ${s.alpha * 100} % two-sided, ${s.power * 100} % power, discordant share ${s.discordant}):`,
    ];
    for (const p of s.probes) {
        const n = p.questions.min === p.questions.max ? `${p.questions.min}` : `${p.questions.min}–${p.questions.max}`;
        out.push(
            `  ${p.kind} · ${p.probe}: ${p.groups} group(s) of ${n} questions (${p.rows} rows) — detects ${p.detectable === null ? 'no difference' : `a difference of ${pc(p.detectable)}`}; ${pc(s.difference)} needs ${p.needed} questions per group${p.needed > p.questions.min ? ` (${p.needed - p.questions.min} more than it has)` : ''}`,
        );
    }
    if (!s.probes.length) out.push('  no measured question in this selection');
    return out;
}

/**
 * The power account in one line, per family (the editor's run picker shows it under a suite): the smallest difference
 * the family's smallest group detects, families with the same figure named together, then what the target difference
 * needs. `estimate --power` gives it per probe.
 */
export function powerSummary(s: SuitePower): string {
    if (!s.probes.length) return 'Power: no measured question in this suite';
    const worst = new Map<string, number | null>();
    for (const p of s.probes) {
        const was = worst.get(p.kind);
        worst.set(p.kind, was === null || p.detectable === null ? null : Math.max(was ?? 0, p.detectable));
    }
    const byText = new Map<string, string[]>();
    for (const [kind, d] of worst) {
        const text = d === null ? 'no difference' : pc(d);
        byText.set(text, [...(byText.get(text) ?? []), kind]);
    }
    const detects = [...byText].map(([text, kinds]) => `${text} (${kinds.join(', ')})`).join(', ');
    return `${s.power * 100} % power: detects ${detects}; ${pc(s.difference)} needs ${s.probes[0]!.needed} questions a group`;
}
