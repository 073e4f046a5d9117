/**
 * Knowledge probes: one question per entity ("Do you know about the movie … ? If yes, …"), answered with a
 * bare yes / no, that decide which entities a model knows (the paper's three evaluation modes).
 */
import type { ProbeDecl, SpecModel } from '../spec/model.js';
import type { LoadedData } from '../data/types.js';
import { SYSTEM_KNOWS } from './prompts.js';
import { phrasedItems, starPath, type CompiledPhrasing, type Plan, type PlanProblem } from './plan.js';
import { keyAttributes, relationLabel, Scope, slotFor } from './scope.js';
import { keyOccurrences } from './rows.js';
import { describeBy } from './binary.js';
import type { ProbeFamily } from './family.js';
import type { Question } from './question.js';
import type { ParsedAnswer } from '../verify/answer.js';
import { parseYesNo, yesNoGuess, yesNoText } from './answers.js';

export function knowsPlan(spec: SpecModel, data: LoadedData, probe: ProbeDecl, problems: PlanProblem[]): Plan | undefined {
    const slot = slotFor(spec, data.tables, probe.relation ?? '');
    if (typeof slot === 'string') { problems.push({ loc: probe.loc, severity: 'error', code: 'probe-data', message: slot }); return undefined; }
    const scope = new Scope([slot], [{ slot: 0 }]);
    const rel = slot.relation;
    const key = keyAttributes(rel);
    // Several asks form one prompt, as in the paper ("Do you know …? If yes, … If yes, …").
    const text = probe.asks.length > 0 ? probe.asks.map(a => a.text).join(' ') : `Do you know about the ${relationLabel(rel)} whose ${describeBy(rel, key)}?`;
    const phrasing: CompiledPhrasing = { decl: { name: 'knows', gold: { kind: 'yes' }, text, loc: probe.asks[0]?.loc ?? probe.loc }, template: scope.template(text) };
    for (const a of key) scope.need(0, a);
    const repeated = keyOccurrences(slot.table, key);
    const shown = () => [...scope.used.values()].map(r => r.attribute.name);
    return {
        probe, kind: 'knows', scope, system: SYSTEM_KNOWS, constraints: [rel.loc],
        bind(row, rows) {
            rows[0] = row;
            if (scope.hasNull(rows)) return 'null';
            // One question per entity: a repeated key is the same entity again.
            return repeated?.[row] ? 'violating' : undefined;
        },
        items: rows => phrasedItems(scope, [phrasing], rows, [], ''),
        path: rows => starPath(scope, rows, shown(), []),
    };
}

/** Knowledge probe (paper rule): known iff the answer is yes and no word "no" appears outside the entity's own name. */
export function knows(q: Question, response: string, parsed: ParsedAnswer): boolean {
    if (parsed.answer !== 'yes') return false;
    let rest = response;
    for (const v of q.entity.key) if (v) rest = rest.split(v).join(' ');
    return !/\bno\b/i.test(rest);
}

export const knowsFamily: ProbeFamily = {
    kind: 'knows',
    title: 'one question per entity ("Do you know about …?") that decides which entities a model knows',
    target: 'relation',
    example: "write 'about <relation>'",
    members: ['ask'],
    compile: ({ spec, data, probe, problems }) => knowsPlan(spec, data, probe, problems),
    phrasings: () => ['knows'],
    pathPerItem: false,
    parse: parseYesNo,
    score: (q, parsed, response) => {
        const known = knows(q, response, parsed);
        return { correct: known, known };
    },
    measured: false,
    decidesKnowledge: true,
    metricExtras: () => ({}),
    meanOverPhrasings: false,
    reportSections: () => [],
    answerText: yesNoText,
    guess: yesNoGuess,
};
