/**
 * Knowledge probes: one question per entity ("Do you know about the movie … ? If yes, …"), answered with a
 * bare yes / no, that decide which entities a model knows (the paper's three evaluation modes).
 *
 * A prompt may name attributes of relations FK-joined to the entity (`{Director.birth_year}`), keep a clause
 * only where the data allows it (`ask when "nonempty(host_years)" "…"`), and ask its clauses as separate
 * questions (`asks separate`: the entity is known only if every one passes). `known_if` names the rule.
 */
import type { ProbeDecl, SpecModel } from '../../spec/model.js';
import type { LoadedData } from '../../data/types.js';
import { SYSTEM_KNOWS } from '../../probes/prompts.js';
import { starPath, type Item, type Plan } from '../../probes/plan.js';
import { keyAttributes, relationLabel, Scope, slotFor, type TemplateSlot, describeBy } from '../../probes/scope.js';
import { keyOccurrences } from '../../probes/rows.js';
import type { ProbeFamily } from '../../probes/contract/family.js';
import type { Question } from '../../probes/question.js';
import type { ParsedAnswer } from '../../verify/answer.js';
import { ANSWER_SETTINGS, parseYesNo, yesNoGuess, yesNoText } from '../../probes/answers.js';
import { saysNoWord } from '../../reader/index.js';
import { AMBIGUOUS, DANGLING, FkJoin } from '../../kg/graph.js';
import { evaluate, namesIn, parseExpression, parseTemplate, render, truthy, type Expr } from '../../spec/template.js';
import type { Problem } from '../../errors.js';
import { declareSettings } from '../../spec/settings.js';

declare module '../../probes/question.js' {
    interface QuestionData {
        /** knows questions: how "known" is read from the answer (KNOWN_RULES); absent = only_yes. */
        knownIf?: 'only_yes' | 'no_word_no';
    }
}

/**
 * How a knowledge answer decides "known" (METHODS.md §1):
 * - `only_yes` (default, the paper's text): the answer is yes and no word "no" appears outside the entity's names;
 * - `no_word_no` (the authors' scoring code, behind the paper's tables): no word "no" outside the entity's
 *   names, whatever else the response says ("I do not have enough information" counts as known).
 */
const KNOWN_RULES = ['only_yes', 'no_word_no'] as const;

/** One FK step from an already bound slot to a new one. */
interface SlotJoin {
    from: number;
    to: number;
    join: FkJoin;
}

/** The relations a knows probe's templates name as `Relation.attribute`, other than its own. */
function qualifiers(probe: ProbeDecl, own: string): string[] {
    const out = new Set<string>();
    for (const a of probe.asks) {
        const exprs: Expr[] = [];
        for (const part of parseTemplate(a.text).parts) if (part.kind === 'placeholder') exprs.push(part.expr);
        if (a.when) {
            const c = parseExpression(a.when);
            if (!('error' in c)) exprs.push(c.expr);
        }
        for (const e of exprs) for (const n of namesIn(e)) if (n.qualifier && n.qualifier !== own) out.add(n.qualifier);
    }
    return [...out];
}

/**
 * Slots for the joined relations: a breadth-first walk over the spec's FKs from the entity's relation, so
 * `{Director.birth_year}` on Movie reads the director row that Movie.director points to.
 */
function joinedSlots(
    spec: SpecModel,
    data: LoadedData,
    start: TemplateSlot,
    wanted: string[],
    problems: Problem[],
    probe: ProbeDecl,
): { slots: TemplateSlot[]; joins: SlotJoin[] } {
    const slots: TemplateSlot[] = [start];
    const joins: SlotJoin[] = [];
    const pending = new Set(wanted);
    for (let i = 0; i < slots.length && pending.size > 0; i++) {
        for (const fk of spec.fks) {
            if (fk.from.relation !== slots[i]!.relation.name || slots.some(s => s.relation.name === fk.to.relation)) continue;
            const target = slotFor(spec, data.tables, fk.to.relation);
            if (typeof target === 'string') continue;
            joins.push({
                from: i,
                to: slots.length,
                join: new FkJoin(slots[i]!.table, fk.from.attributes, target.table, fk.to.attributes),
            });
            slots.push(target);
            pending.delete(fk.to.relation);
        }
    }
    for (const name of pending) {
        problems.push({
            location: probe.loc,
            severity: 'error',
            code: 'unknown-attribute',
            message: `Knowledge probe ${probe.name} names ${name}, which no chain of fks from ${start.relation.name} reaches; declare an fk or drop the reference.`,
        });
    }
    return { slots, joins };
}

function knowsPlan(spec: SpecModel, data: LoadedData, probe: ProbeDecl, problems: Problem[]): Plan | undefined {
    const slot = slotFor(spec, data.tables, probe.relation ?? '');
    if (typeof slot === 'string') {
        problems.push({ location: probe.loc, severity: 'error', code: 'probe-data', message: slot });
        return undefined;
    }
    const rel = slot.relation;
    const { slots, joins } = joinedSlots(spec, data, slot, qualifiers(probe, rel.name), problems, probe);
    const scope = new Scope(slots, [{ slot: 0 }]);
    const key = keyAttributes(rel);
    const settings = KNOWS_SETTINGS.read(probe.settings);
    const rule = settings.known_if;
    const separate = settings.asks === 'separate';
    const asks =
        probe.asks.length > 0
            ? probe.asks
            : [{ text: `Do you know about the ${relationLabel(rel)} whose ${describeBy(rel, key)}?`, loc: probe.loc }];
    // Several asks form one prompt, as in the paper ("Do you know …? If yes, … If yes, …"), unless `asks separate`.
    const clauses = asks.map(a => ({
        template: scope.template(a.text),
        when: a.when === undefined ? undefined : scope.condition(a.when),
        text: a.text,
    }));
    // A clause kept only where its condition holds may name values that are null elsewhere: only the others must be there.
    const required = clauses
        .filter(c => !c.when)
        .flatMap(c => c.template.parsed.parts.flatMap(p => (p.kind === 'placeholder' ? namesIn(p.expr) : [])))
        .map(n => scope.resolve(n.name, n.qualifier))
        .filter(r => r !== null && !r.attribute.type.list);
    const whole = asks.map(a => a.text).join(' ');
    const keyResolved = key.map(a => scope.need(0, a)).filter(r => r !== null);
    const repeated = keyOccurrences(slot.table, key);
    const shown = () => [...scope.used.values()].filter(r => r.slot === 0).map(r => r.attribute.name);
    const item = (phrasing: string, template: string, question: string, position = 0): Item => {
        // Asked in other words than a recorded knowledge question, it is still "does the model know this entity".
        const it: Item = { phrasing, template, question, gold: 'yes', keywords: [], explain: '', replayByEntity: position };
        if (rule !== 'only_yes') it.knownIf = rule;
        return it;
    };
    return {
        probe,
        scope,
        system: SYSTEM_KNOWS,
        constraints: [rel.loc],
        bind(row, rows) {
            rows[0] = row;
            for (const j of joins) {
                const t = j.join.target(rows[j.from]!);
                if (t === DANGLING) return 'dangling';
                if (t === AMBIGUOUS) return 'violating';
                rows[j.to] = t;
            }
            for (const r of [...required, ...keyResolved])
                if (scope.slots[r!.slot]!.table.value(rows[r!.slot]!, r!.attribute.name) === null) return 'null';
            // One question per entity: a repeated key is the same entity again.
            return repeated?.[row] ? 'violating' : undefined;
        },
        items(rows) {
            const lookup = scope.lookup(rows);
            try {
                const kept = clauses.filter(c => !c.when || truthy(evaluate(c.when, lookup)));
                if (kept.length === 0) return 'invalid';
                if (separate)
                    return clauses.flatMap((c, i) =>
                        kept.includes(c) ? [item(`ask${i + 1}`, c.text, render(c.template.parsed, lookup), i)] : [],
                    );
                return [item('knows', whole, kept.map(c => render(c.template.parsed, lookup)).join(' '))];
            } catch {
                return 'invalid';
            }
        },
        path: rows => starPath(scope, rows, shown(), []),
    };
}

/** Does this knowledge answer say the model knows the entity, under the question's rule (see KNOWN_RULES)? */
export function knows(q: Question, response: string, parsed: ParsedAnswer): boolean {
    const saysNo = saysNoWord(response, q.entity.key);
    if ((q.knownIf ?? 'only_yes') === 'no_word_no') return !saysNo;
    return parsed.answer === 'yes' && !saysNo;
}

/** The settings a knows probe reads, declared once (src/core/spec/settings.ts) and read through this table. */
const KNOWS_SETTINGS = declareSettings('probe knows', {
    known_if: {
        type: 'text',
        values: KNOWN_RULES,
        default: 'only_yes',
        doc: 'How "known" is read from the answer: only_yes (default) or no_word_no.',
    },
    asks: {
        type: 'text',
        values: ['separate'],
        doc: 'asks separate: each ask is its own question (default: one question from all asks).',
    },
});

export const knowsFamily: ProbeFamily = {
    core: {
        kind: 'knows',
        title: 'one question per entity ("Do you know about …?") that decides which entities a model knows',
        docs: 'probes.md#knowledge-probes',
        target: 'relation',
        example: "write 'about <relation>'",
        members: ['ask'],
        settings: [...ANSWER_SETTINGS.decls, ...KNOWS_SETTINGS.decls],
        compile: ({ spec, data, probe, problems }) => knowsPlan(spec, data, probe, problems),
        phrasings: probe =>
            KNOWS_SETTINGS.read(probe.settings).asks === 'separate' ? probe.asks.map((_, i) => `ask${i + 1}`) : ['knows'],
        pathPerItem: false,
        parse: parseYesNo,
        score: (q, parsed, response) => {
            const known = knows(q, response, parsed);
            return { correct: known, known };
        },
        measured: false,
        decidesKnowledge: true,
    },
    simulator: { answerText: yesNoText, guess: yesNoGuess },
};
