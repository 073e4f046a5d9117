/**
 * One fact, every family in the editor (docs/facts.md): the facts of a data row's key, as the hover of that row shows
 * them (the same model as an FD line's, `anchorFacts`), and the graph panel's fact view. Both read the run's per-fact
 * step (`runFacts`); the faces only format what comes back.
 */
import * as path from 'node:path';
import type { FactGraph, GraphView } from '../../protocol/webview.js';
import type { LoadedData } from '../data/types.js';
import type { SpecModel } from '../spec/model.js';
import { keyValues } from '../probes/scope.js';
import { FACT_CLASS_TEXT, observe } from '../verify/facts.js';
import { factDrawing } from '../kg/drawing.js';
import { anchorFacts, runFacts, type AnchorFacts, type AnchorInput } from './anchors.js';
import { factHead } from './facts.js';

/** A data row, named as facts name it: its relation and its key's values. */
export interface RowKey {
    relation: string;
    key: string[];
}

/** The rows a data file's line holds (1-based): one per relation read from that file (a distinct projection's first row). */
export function rowsAtLine(
    spec: Pick<SpecModel, 'relations'>,
    data: Pick<LoadedData, 'tables'>,
    file: string,
    line: number,
): RowKey[] {
    const out: RowKey[] = [];
    for (const relation of spec.relations) {
        const table = data.tables.get(relation.name);
        if (!table || path.resolve(table.file) !== path.resolve(file)) continue;
        for (let row = 0; row < table.rowCount; row++) {
            if (table.lines[row] === line) {
                out.push({ relation: relation.name, key: keyValues(relation, table, row) });
                break;
            }
        }
    }
    return out;
}

export interface RowFacts extends RowKey {
    model: string;
    facts: AnchorFacts;
    /** Of these facts, those asked in two families or more: what the cross-family summary is about (a hover shows these rows first). */
    across: number;
}

const sameKey = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Per row and model, the facts of the row's key the run's questions tested: the hover of that row's key. */
export function rowFactResults(
    input: Pick<AnchorInput, 'questions' | 'verdicts' | 'overrides'>,
    rows: readonly RowKey[],
): RowFacts[] {
    if (rows.length === 0 || !input.questions.some(q => q.facts?.length)) return [];
    const { facts } = runFacts(input);
    const out: RowFacts[] = [];
    for (const row of rows) {
        const mine = facts.filter(f => f.relation === row.relation && sameKey(f.key, row.key));
        for (const model of [...new Set(mine.map(f => f.model))]) {
            const summary = anchorFacts(mine.filter(f => f.model === model));
            out.push({ ...row, model, facts: summary, across: summary.n - summary.classes['not-enough-forms'] });
        }
    }
    return out;
}

/**
 * The graph panel's fact view of one fact and model: each family's verdict with the value it gave, and the question
 * whose graph it opens (one on which the family's answer was what its verdict says: a wrong one when it was wrong).
 * Undefined when the run has no verdict on that fact for that model.
 */
export function factView(
    input: Pick<AnchorInput, 'questions' | 'verdicts' | 'overrides'>,
    factId: string,
    model: string,
): (GraphView & { view: 'fact' }) | undefined {
    const f = runFacts(input).facts.find(x => x.id === factId && x.model === model);
    if (!f) return undefined;
    const asking = new Map(input.questions.filter(q => q.facts?.some(r => r.id === factId)).map(q => [q.id, q]));
    const wanted = { right: 'right', wrong: 'wrong', abstained: 'abstain' } as const;
    const answers = Object.entries(f.families)
        .filter(([, v]) => v.answers > 0)
        .map(([kind, v]) => {
            let first: string | undefined, fitting: string | undefined;
            for (const verdict of input.verdicts) {
                if (verdict.model !== model) continue;
                const q = asking.get(verdict.questionId);
                if (!q || q.kind !== kind) continue;
                first ??= q.id;
                const o = q
                    .facts!.filter(r => r.id === factId && r.passage !== 'swapped')
                    .map(r => observe(r, q, verdict))
                    .find(x => x?.outcome);
                if (o?.outcome === wanted[v.verdict]) {
                    fitting = q.id;
                    break;
                }
            }
            const said = v.verdict === 'wrong' && v.value !== undefined ? `wrong: ${v.value}` : v.verdict;
            const swapped = v.swapped ? `, followed ${v.swapped.followed} of ${v.swapped.answers} swapped passages` : '';
            return {
                kind,
                verdict: v.verdict,
                ...(v.value !== undefined && v.verdict === 'wrong' ? { value: v.value } : {}),
                text: `${kind} · ${said} (${v.answers} answer${v.answers === 1 ? '' : 's'}${swapped})`,
                questionId: (fitting ?? first)!,
            };
        })
        .filter(a => a.questionId !== undefined);
    const fact: FactGraph = {
        ...factHead(f),
        classText: FACT_CLASS_TEXT[f.class],
        answers,
    };
    return { view: 'fact', fact, drawn: factDrawing(fact) };
}
