/**
 * Statement probes (GraphEval, METHODS.md §3): for each row and each attribute its FD determines, one true
 * statement "(entity, attribute, value)" and `negatives` corrupted ones, each guaranteed false by the FD:
 *   - tail:     another value of the same column (y' ≠ y; X → A makes (x, A, y') false);
 *   - head:     another entity x' whose A differs from y (its own A is y' ≠ y);
 *   - relation: another right-hand-side attribute B of the same type whose value for x differs from y.
 * The model answers true / false / I don't know; T, I and C per triple are computed against its negatives with
 * the intended polarity (statements/metrics.ts). The true statement and its negatives form one question group.
 */
import type { RelationDecl, SpecModel } from '../../spec/model.js';
import { dateItem, probeAsOf } from '../../probes/as-of.js';
import type { CellValue } from '../../data/types.js';
import type { ProbeFamily } from '../../probes/contract/family.js';
import type { CompileInput, GroupMember, GroupRelation } from '../../probes/contract/core.js';
import type { Item, Plan } from '../../probes/plan.js';
import { entityNode, fdPlanStart, planFailure, starPath, valueNode } from '../../probes/plan.js';
import { keyValues, labelOf, relationLabel, Scope, type Compiled, describeBy } from '../../probes/scope.js';
import { violatingRows } from '../../probes/rows.js';
import { hashSeed, pick, prng } from '../../probes/sampling.js';
import { format, render, type TemplateValue } from '../../spec/template.js';
import { parseStatement } from '../../verify/answer.js';
import type { Gold } from '../../probes/question.js';
import { ANSWER_SETTINGS } from '../../probes/answers.js';
import { STATEMENT_COLUMNS, statementExtras, statementSections } from './metrics.js';
import { estimateStatements } from './run-estimate.js';
import { falseOfEveryMeaning, missingAttributes, SubjectIndex } from '../../probes/golds.js';
import { rowFacts } from '../../probes/facts.js';
import { declareSettings } from '../../spec/settings.js';

declare module '../../probes/question.js' {
    interface QuestionData {
        /**
         * statement questions: the attribute stated and, for a negative, how it was made ('tail', 'head' or 'relation')
         * with the true value (`from`) and what the statement claims instead (`to`); 'true' for the true statement.
         */
        statement?: {
            attribute: string;
            corruption: 'true' | 'tail' | 'head' | 'relation';
            from: string;
            to: string;
            /** The head's type (the entity's relation) and the tail's (an fk's target relation, else the value's kind): GraphEval App. A.2. */
            head?: string;
            tail?: string;
            /** How many statements its triple has (the true one and its negatives): a triple missing one is not scored. */
            of?: number;
        };
    }
}

/** GraphEval's instruction, verbatim (the "paper" preset and the default). */
export const SYSTEM_STATEMENT =
    "You are given a statement. You are asked to judge whether the statement is true or false. Answer 'Yes, the statement is true.' if you know the statement is true. Answer 'No, the statement is false.' if you know the statement is false. Otherwise, answer 'I don't know.'";

type Corruption = 'tail' | 'head' | 'relation';
/** A value held by more rows than this is not moved to another row by a head corruption (see claimKind in statementPlan). */
const HEAD_HOLDERS = 8;
const CORRUPTIONS: readonly Corruption[] = ['tail', 'head', 'relation'];

/** The phrasing every statement carries: true ones and negatives are judged in one metric group. */
const STATEMENT_PHRASING = 'statement';

interface Edge {
    attribute: string;
    template: Compiled;
    column: NonNullable<ReturnType<Scope['slots'][number]['table']['column']>>;
    subjects: SubjectIndex;
    tail: string;
}

const VALUE_KINDS: Record<string, string> = { text: 'text', int: 'number', real: 'number', date: 'date', bool: 'yes / no' };

/**
 * The type of a statement's tail: the relation an fk from the attribute leads to (a director is a "director"),
 * else what kind of value it is (a year is a "number").
 */
function tailType(spec: SpecModel, relation: RelationDecl, attribute: string): string {
    const fk = spec.fks.find(
        k => k.from.relation === relation.name && k.from.attributes.length === 1 && k.from.attributes[0] === attribute,
    );
    const target = fk && spec.relations.find(r => r.name === fk.to.relation);
    if (target) return relationLabel(target);
    const attr = relation.attributes.find(a => a.name === attribute);
    return VALUE_KINDS[attr?.type.scalar ?? 'text'] ?? 'text';
}

/** The settings a statement probe reads, declared once (src/core/spec/settings.ts) and read through this table. */
const STATEMENT_SETTINGS = declareSettings('probe statement', {
    statement: {
        type: 'text',
        list: true,
        doc: "The true statement's template(s), one per right-hand-side attribute (default: a sentence from the labels).",
    },
    negatives: {
        type: 'integer',
        min: 1,
        max: 20,
        named: { paper: 1 },
        default: 3,
        doc: "Corrupted statements per true one, 1 to 20 (default 3); paper: GraphEval's 1:1, one negative per true statement.",
    },
    corrupt: {
        type: 'text',
        list: true,
        values: CORRUPTIONS,
        default: ['tail', 'head'],
        doc: 'How negatives are made: head, tail, relation (default [tail, head]).',
    },
});

function statementPlan(input: CompileInput): Plan | undefined {
    const { spec, data, probe, problems, seed } = input;
    const fail = planFailure(problems, probe);
    const start = fdPlanStart(spec, data, probe, problems);
    if (!start) return undefined;
    const { fd, slot, rel, scope } = start;
    const settings = STATEMENT_SETTINGS.read(probe.settings);
    const negatives = settings.negatives;
    if (negatives < 1 || negatives > 20)
        return fail(
            'probe-setting',
            'negatives is a whole number of corrupted statements per true one, from 1 to 20, e.g. negatives 3.',
        );
    const kinds: Corruption[] = settings.corrupt.length ? [...settings.corrupt] : ['tail', 'head'];
    // One template per right-hand-side attribute: the written one that names it, else a sentence from the labels.
    const written = settings.statement ?? [];
    const edges: Edge[] = [];
    for (const a of fd.rhs) {
        const attr = rel.attributes.find(x => x.name === a);
        if (!attr || attr.type.list) continue;
        const text =
            written.find(t => t.includes(`{${a}}`)) ??
            `The ${labelOf(rel, a)} of the ${relationLabel(rel)} whose ${describeBy(rel, fd.lhs)} is {${a}}.`;
        const column = slot.table.column(a);
        const template = scope.template(text);
        if (column)
            edges.push({
                attribute: a,
                template,
                column,
                subjects: new SubjectIndex(scope, slot.table, template.parsed, a),
                tail: tailType(spec, rel, a),
            });
    }
    // A statement that leaves out part of the FD's left-hand side does not say which entity it is about: the FD
    // then decides nothing, and a "negative" may be another entity's truth (King Kong 1933 and 2005).
    let ambiguous = false;
    for (const edge of edges) {
        const missing = missingAttributes([edge.template.parsed], fd.lhs);
        if (missing.length === 0) continue;
        ambiguous = true;
        const example = edge.subjects.alike();
        const keys = example?.rows.map(r => `(${keyValues(rel, slot.table, r).join(', ')})`).join(' and ');
        problems.push({
            location: probe.loc,
            severity: 'error',
            code: 'probe-statement-ambiguous',
            message: `The statement "${edge.template.text}" does not name ${missing.map(m => `{${m}}`).join(', ')} of ${fd.id}'s left-hand side (${fd.lhs.join(', ')}), so its subject may mean several ${relationLabel(rel)} rows${example ? ` (e.g. "${example.text}" reads alike for ${keys})` : ''} and a corrupted statement may be true of one of them. Add ${missing.map(m => `{${m}}`).join(' and ')} to the statement.`,
        });
    }
    if (ambiguous) return undefined;
    for (const t of written.filter(t => !fd.rhs.some(a => t.includes(`{${a}}`)))) {
        problems.push({
            location: probe.loc,
            severity: 'warning',
            code: 'probe-statement',
            message: `The statement "${t}" names no right-hand-side attribute of ${fd.id} (${fd.rhs.join(', ')}), so it states nothing the FD determines: it is ignored.`,
        });
    }
    if (edges.length === 0)
        return fail(
            'probe-statement',
            `${fd.id} determines no scalar attribute to state: statements need a right-hand side that is not a list.`,
        );
    if (
        kinds.includes('relation') &&
        !edges.some(e => edges.some(o => o !== e && o.column.type.scalar === e.column.type.scalar))
    ) {
        problems.push({
            location: probe.loc,
            severity: 'warning',
            code: 'probe-corrupt',
            message: `corrupt relation needs two right-hand-side attributes of one type in ${fd.id}; none here, so only ${kinds.filter(k => k !== 'relation').join(', ') || 'no'} corruptions are made.`,
        });
    }
    for (const a of [...fd.lhs, ...edges.map(e => e.attribute)]) scope.need(0, a);
    const violating = violatingRows(slot.table, fd.lhs, fd.rhs);
    const table = slot.table;
    const asOf = probeAsOf(scope.slots, probe, problems);
    const head = relationLabel(rel);

    /** Rows whose `attribute` value differs from `code` (for head corruptions), drawn lazily per attribute. */
    const otherRow = (
        random: () => number,
        edge: Edge,
        code: number,
        self: number,
        mine: (r: number) => boolean,
    ): number | undefined => {
        for (let tries = 0; tries < 40; tries++) {
            const r = pick(random, table.rowCount);
            if (r === self || violating?.[r]) continue;
            const c = edge.column.codes[r]!;
            if (c >= 0 && c !== code && fd.lhs.every(l => (table.column(l)?.codes[r] ?? -1) >= 0) && mine(r)) return r;
        }
        return undefined;
    };

    // One question per statement: a false statement about a row ("The capital of Thailand is Mexico City.") could be
    // made by its own tail corruption, by the head corruption of every row holding that value, and by a relation
    // corruption. Each such claim belongs to one way of making it, decided by the claim alone (so every row's
    // negatives stay its own, whatever order rows are generated in): the claim's hash picks the corruption kind, and
    // among the rows a head corruption could come from, one row. A claim is its row's key, the attribute and the value
    // as written (so a value claimed from another attribute, by a relation corruption, is the same claim); the hashes
    // are kept per row and per distinct value, each computed once, on first use.
    let keyHashes: Float64Array | undefined;
    const keyHash = (row: number) => {
        keyHashes ??= new Float64Array(table.rowCount).fill(-1);
        return keyHashes[row]! >= 0
            ? keyHashes[row]!
            : (keyHashes[row] = hashSeed(keyValues(rel, table, row).join('\u0000'), seed));
    };
    const valueHashes = new Map<string, Float64Array>();
    const valueHash = (edge: Edge, code: number) => {
        let cache = valueHashes.get(edge.attribute);
        if (!cache) valueHashes.set(edge.attribute, (cache = new Float64Array(edge.column.size).fill(-1)));
        return cache[code]! >= 0 ? cache[code]! : (cache[code] = hashSeed(format(edge.column.values[code] as TemplateValue)));
    };
    const attributeHash = new Map(edges.map(e => [e.attribute, hashSeed(e.attribute)]));
    /** How many rows hold a value (by its hash) in an attribute: a head corruption may state it only when few do. */
    const holderCounts = new Map<string, Map<number, number>>();
    const holdersOf = (attribute: string, value: number): number => {
        let counts = holderCounts.get(attribute);
        if (!counts) {
            const edge = edges.find(e => e.attribute === attribute)!,
                index = holderIndex(edge);
            counts = new Map();
            for (let c = 0; c < edge.column.size; c++)
                counts.set(valueHash(edge, c), (counts.get(valueHash(edge, c)) ?? 0) + index.offsets[c + 1]! - index.offsets[c]!);
            holderCounts.set(attribute, counts);
        }
        return counts.get(value) ?? 0;
    };
    const claimKind = (row: number, attribute: string, value: number): Corruption => {
        const kind =
            kinds[
                (Math.imul(
                    keyHash(row) ^ Math.imul(attributeHash.get(attribute)!, 0x9e3779b1) ^ Math.imul(value, 0x85ebca6b),
                    0xc2b2ae35,
                ) >>>
                    0) %
                    kinds.length
            ]!;
        // A value many rows hold is said of another row by its tail corruption: their head corruptions would all say it.
        if (kind !== 'head') return kind;
        const holders = holdersOf(attribute, value);
        return holders > 0 && holders <= HEAD_HOLDERS ? 'head' : (kinds.find(k => k !== 'head') ?? 'head');
    };
    /** The rows holding each value of an attribute, grouped by the value's code: a counting sort, built once per attribute. */
    const holderIndexes = new Map<string, { offsets: Int32Array; rows: Int32Array }>();
    function holderIndex(edge: Edge): { offsets: Int32Array; rows: Int32Array } {
        let index = holderIndexes.get(edge.attribute);
        if (!index) {
            const codes = edge.column.codes,
                offsets = new Int32Array(edge.column.size + 1),
                rows = new Int32Array(table.rowCount);
            for (let r = 0; r < table.rowCount; r++) if (codes[r]! >= 0 && !violating?.[r]) offsets[codes[r]! + 1]!++;
            for (let c = 0; c < edge.column.size; c++) offsets[c + 1]! += offsets[c]!;
            const next = offsets.slice(0, -1);
            for (let r = 0; r < table.rowCount; r++) if (codes[r]! >= 0 && !violating?.[r]) rows[next[codes[r]!]!++] = r;
            holderIndexes.set(edge.attribute, (index = { offsets, rows }));
        }
        return index;
    }
    /** The one row whose head corruption may state `code`'s value of `edge` about `row`. */
    const headSource = (row: number, edge: Edge, code: number): number => {
        const index = holderIndex(edge);
        const from = index.offsets[code]!,
            count = index.offsets[code + 1]! - from;
        return count === 0 ? -1 : index.rows[from + (keyHash(row) % count)]!;
    };

    return {
        probe,
        scope,
        system: SYSTEM_STATEMENT,
        constraints: [fd.loc],
        bind(row, rows) {
            rows[0] = row;
            if (scope.hasNull(rows)) return 'null';
            return violating?.[row] ? 'violating' : undefined;
        },
        items(rows) {
            const row = rows[0]!;
            const random = prng(hashSeed(`${probe.name}\u0000${keyValues(rel, table, row).join('\u0000')}`, seed));
            const items: Item[] = [];
            try {
                for (const edge of edges) {
                    const truth = edge.column.codes[row]!;
                    const value = edge.column.values[truth]!;
                    const key = edge.attribute;
                    const truthText = render(edge.template.parsed, scope.lookup(rows));
                    const first = items.length;
                    items.push({
                        ...statementItem(edge, truthText, 'yes', 'true', key, 0),
                        facts: rowFacts(scope, rows, 0, [edge.attribute], 'asked', {}, fd.lhs),
                    });
                    const made = new Set<string>([truthText]);
                    // A value many rows hold is not moved by a head corruption: do not draw that kind for it.
                    const usable =
                        holdersOf(edge.attribute, valueHash(edge, truth)) > HEAD_HOLDERS && kinds.length > 1
                            ? kinds.filter(k => k !== 'head')
                            : kinds;
                    for (let n = 0, tries = 0; n < negatives && tries < negatives * 6; tries++) {
                        const kind = usable[pick(random, usable.length)]!;
                        const text = corrupt(kind, edge, rows, truth, value, random);
                        if (text === undefined || made.has(text.text)) continue;
                        // False of every row its text could mean, and not the truth written another way (aliases).
                        if (
                            !falseOfEveryMeaning(
                                spec,
                                data,
                                rel.name,
                                text.edge.subjects,
                                table,
                                text.edge.attribute,
                                text.row,
                                text.claimed,
                            )
                        )
                            continue;
                        made.add(text.text);
                        n++;
                        // The claim is about text.row's text.edge.attribute (another row's for a head corruption, another
                        // attribute's for a relation one): that fact, shown with the claimed value (docs/facts.md).
                        const facts = rowFacts(
                            scope,
                            new Int32Array([text.row]),
                            0,
                            [text.edge.attribute],
                            'shown',
                            { shown: format(text.claimed as TemplateValue) },
                            fd.lhs,
                        );
                        items.push({
                            ...statementItem(edge, text.text, 'no', kind, key, n),
                            statement: { attribute: key, corruption: kind, from: text.from, to: text.to, head, tail: edge.tail },
                            facts,
                        });
                    }
                    for (const it of items.slice(first)) it.statement!.of = items.length - first;
                }
            } catch {
                return 'invalid';
            }
            return items;
        },
        path(rows, item) {
            const s = item.statement;
            if (!s || s.corruption === 'true') return starPath(scope, rows, fd.lhs, [s?.attribute ?? edges[0]!.attribute]);
            // The true fact and, beside it, what the negative claims instead.
            const p = starPath(scope, rows, fd.lhs, [s.attribute]);
            const entity = entityNode(scope, rows, 0, 0, true);
            const claimed = {
                ...valueNode(scope, rows, 0, s.attribute, 1, false, s.to),
                id: `${rel.name}.${s.attribute}=${s.to} (${s.corruption})`,
            };
            p.nodes.push(claimed);
            p.edges.push({ from: entity.id, to: claimed.id, label: `${s.attribute} (${s.corruption}, false)`, hop: 1 });
            return p;
        },
    };

    function statementItem(edge: Edge, text: string, gold: Gold, role: string, groupKey: string, n: number): Item {
        return dateItem(
            {
                phrasing: STATEMENT_PHRASING,
                template: `${edge.template.text}\u0000${role}#${n}`,
                question: text,
                gold,
                keywords: [],
                explain: '',
                group: { key: groupKey, relation: 'statements', role: n === 0 ? 'true' : `${role}-${n}` },
                statement: { attribute: edge.attribute, corruption: 'true', from: '', to: '', head, tail: edge.tail },
            },
            asOf,
            [edge.template.text],
        );
    }

    /** A corrupted statement the FD makes false, or undefined when this kind cannot make one for the row. */
    function corrupt(
        kind: Corruption,
        edge: Edge,
        rows: Int32Array,
        truth: number,
        value: CellValue,
        random: () => number,
    ): { text: string; from: string; to: string; row: number; edge: Edge; claimed: CellValue } | undefined {
        const shown = (v: CellValue) => format(v as TemplateValue);
        if (kind === 'tail') {
            const n = edge.column.size;
            if (n < 2) return undefined;
            // A value whose claim about this row is a tail corruption's to make (claimKind).
            let code = -1;
            for (let tries = 0; tries < 8 && code < 0; tries++) {
                let c = pick(random, n - 1);
                if (c >= truth) c++;
                if (claimKind(rows[0]!, edge.attribute, valueHash(edge, c)) === 'tail') code = c;
            }
            if (code < 0) return undefined;
            const fake = edge.column.values[code]!;
            return {
                text: render(edge.template.parsed, scope.lookup(rows, { slot: 0, attribute: edge.attribute, value: fake })),
                from: shown(value),
                to: shown(fake),
                row: rows[0]!,
                edge,
                claimed: fake,
            };
        }
        if (kind === 'head') {
            // A row this claim is a head corruption's to make, and this row the one to make it.
            const other = otherRow(
                random,
                edge,
                truth,
                rows[0]!,
                r => claimKind(r, edge.attribute, valueHash(edge, truth)) === 'head' && headSource(r, edge, truth) === rows[0]!,
            );
            if (other === undefined) return undefined;
            const moved = new Int32Array([other]);
            return {
                text: render(edge.template.parsed, scope.lookup(moved, { slot: 0, attribute: edge.attribute, value })),
                from: keyValues(rel, table, rows[0]!).join(', '),
                to: keyValues(rel, table, other).join(', '),
                row: other,
                edge,
                claimed: value,
            };
        }
        // relation: state y as the value of another attribute B (same type) whose value for this entity is not y.
        const others = edges.filter(
            o =>
                o !== edge &&
                o.column.type.scalar === edge.column.type.scalar &&
                shown(o.column.values[o.column.codes[rows[0]!]!]!) !== shown(value) &&
                claimKind(rows[0]!, o.attribute, valueHash(edge, truth)) === 'relation',
        );
        if (others.length === 0) return undefined;
        const b = others[pick(random, others.length)]!;
        return {
            text: render(b.template.parsed, scope.lookup(rows, { slot: 0, attribute: b.attribute, value })),
            from: edge.attribute,
            to: b.attribute,
            row: rows[0]!,
            edge: b,
            claimed: value,
        };
    }
}

/**
 * A true statement and its corrupted negatives (statement probes): discerning when the model accepts the true one
 * and rejects every negative; fooled when it accepts a negative.
 */
const statementsRelation: GroupRelation = {
    name: 'statements',
    title: 'a true statement and its corrupted negatives: accept the true one, reject every negative',
    outcomes: ['discerning', 'fooled', 'rejected-true', 'abstained'],
    judge(members) {
        const said = (m: GroupMember) => (m.v.answer === 'true' ? 'yes' : m.v.answer === 'false' ? 'no' : 'idk');
        const fooled = members.filter(m => m.q.gold === 'no' && said(m) === 'yes');
        if (fooled.length)
            return { outcome: 'fooled', ok: false, detail: `accepted ${fooled.map(m => m.q.group?.role).join(', ')}` };
        const truth = members.find(m => m.q.gold === 'yes');
        if (truth && said(truth) === 'no') return { outcome: 'rejected-true', ok: false };
        if (members.some(m => said(m) === 'idk')) return { outcome: 'abstained', ok: null };
        return { outcome: 'discerning', ok: true };
    },
};

export const statementFamily: ProbeFamily = {
    core: {
        kind: 'statement',
        title: "true / false / I don't know statements from one FD: each true fact with corrupted ones the FD makes false",
        docs: 'probes.md#statement-probes',
        target: 'fd',
        example: "write 'using <fd name>'; its right-hand side gives the facts",
        members: [],
        readLabels: ['true', 'false', 'dont_know'],
        settings: [...ANSWER_SETTINGS.decls, ...STATEMENT_SETTINGS.decls],
        compile: statementPlan,
        phrasings: () => [STATEMENT_PHRASING],
        pathPerItem: true,
        parse: (response, question) => parseStatement(response, question),
        score: (q, parsed) => ({
            correct: (parsed.answer === 'true' && q.gold === 'yes') || (parsed.answer === 'false' && q.gold === 'no'),
        }),
        measured: true,
        decidesKnowledge: false,
        groupRelations: [statementsRelation],
    },
    figures: { extras: items => statementExtras(items), columns: STATEMENT_COLUMNS },
    report: { sections: groups => statementSections(groups) },
    estimate: { estimate: estimateStatements },
    simulator: {
        answerText: (_q, gold) => (gold === 'no' ? 'No, the statement is false.' : 'Yes, the statement is true.'),
        guess: (_q, draw) => (draw('guess') < 0.7 ? 'yes' : 'no'),
    },
};
