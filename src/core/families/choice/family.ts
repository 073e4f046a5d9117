/**
 * Multiple-choice probes (ERBench §1): one option per right-hand-side attribute of the FD; exactly one
 * option is falsified with a different value of the same column (a two-valued column is flipped); the
 * gold is that option's number and the keyword its true value. Three stems (the paper's by default), and
 * an optional share (`none_of_above 0.2`) of all-true questions whose gold is 'none'.
 */
import type { ProbeDecl, SpecModel } from '../../spec/model.js';
import type { CellValue, LoadedData } from '../../data/types.js';
import type { KgEdge, KgNode, Question } from '../../probes/question.js';
import { format, render, type TemplateValue } from '../../spec/template.js';
import { DEFAULT_STEMS, SYSTEM_CHOICE, SYSTEM_CHOICE_NONE } from '../../probes/prompts.js';
import { entityNode, fdPlanStart, planFailure, valueNode, type Item, type Plan } from '../../probes/plan.js';
import { keyValues, labelOf, relationLabel, describeBy } from '../../probes/scope.js';
import { violatingRows } from '../../probes/rows.js';
import { hashSeed, pick, prng } from '../../probes/sampling.js';
import { readOption, RecordedDraws, unmatchedMessage } from './draws.js';
import { falseOfEveryMeaning, missingAttributes, sameUnderAliases, subjectIndexes } from '../../probes/golds.js';
import type { ProbeFamily } from '../../probes/contract/family.js';
import { ANSWER_SETTINGS } from '../../probes/answers.js';
import { parseChoice, type ParsedAnswer } from '../../verify/answer.js';
import { figure } from '../../verify/figures.js';
import { ciText, pct, round4, roundCi } from '../../report/numbers.js';
import { LABEL_PARTS, keyCells } from '../../report/labels.js';
import { plainCells } from '../../report/paper-cells.js';
import type { Problem } from '../../errors.js';
import { AUTHORS_DECLINE_WORDS } from '../../reader/index.js';
import { datedText, markDated, probeAsOf } from '../../probes/as-of.js';
import { rowFact, rowName, type RowName } from '../../probes/facts.js';
import type { FactRef } from '../../probes/question.js';
import { declareSettings } from '../../spec/settings.js';

// The group's error rates of multiple choice, declared from here (the shared GroupMetrics names no family's figures).
declare module '../../verify/figures.js' {
    interface GroupMetrics {
        /** choice probes: the shares of answers naming several options, and of options bound to the wrong entity. */
        multiple?: Figure;
        binding?: Figure;
    }
}

function choicePlan(spec: SpecModel, data: LoadedData, probe: ProbeDecl, problems: Problem[], seed: number): Plan | undefined {
    const fail = planFailure(problems, probe);
    const start = fdPlanStart(spec, data, probe, problems);
    if (!start) return undefined;
    const { fd, slot, rel, scope } = start;
    for (const o of probe.options) {
        if (!fd.rhs.includes(o.attribute)) {
            problems.push({
                location: o.loc,
                severity: 'warning',
                code: 'probe-option',
                message: `Option ${o.attribute} is not on the right-hand side of ${fd.id}, so its truth is not determined: it is ignored.`,
            });
        }
    }
    // An attribute may have one option text per stem (the paper words each stem's options differently):
    // stem i uses the attribute's i-th text, or its last.
    const texts = new Map<string, string[]>();
    for (const o of probe.options)
        if (fd.rhs.includes(o.attribute)) texts.set(o.attribute, [...(texts.get(o.attribute) ?? []), o.text]);
    if (texts.size === 0) for (const a of fd.rhs) texts.set(a, [`The ${labelOf(rel, a)} is {${a}}.`]);
    // Columns with a single value cannot be falsified; two values are flipped, more are drawn from.
    const options = [...texts]
        .map(([attribute, t]) => ({ attribute, templates: t.map(x => scope.template(x)), column: slot.table.column(attribute) }))
        .filter(o => o.column !== undefined);
    const falsifiable = options.map((o, i) => (o.column!.size >= 2 ? i : -1)).filter(i => i >= 0);
    if (options.length < 2 || falsifiable.length === 0) {
        return fail(
            'probe-choice-options',
            options.length < 2
                ? `Choice probe ${probe.name} has ${options.length} option(s): a multiple-choice question needs at least 2 (one per right-hand-side attribute of ${fd.id}).`
                : `No option of ${probe.name} can be falsified: every option's column holds a single value.`,
        );
    }
    const settings = CHOICE_SETTINGS.read(probe.settings);
    const subjectText = settings.subject ?? `the ${relationLabel(rel)} whose ${describeBy(rel, fd.lhs)}`;
    const stems = (probe.stems.length > 0 ? probe.stems.map(s => s.text) : DEFAULT_STEMS).map(t =>
        scope.template(t.replaceAll('{subject}', subjectText)),
    );
    for (const a of [...fd.lhs, ...options.map(o => o.attribute)]) scope.need(0, a);
    const noneShare = settings.none_of_above;
    if (!(noneShare >= 0 && noneShare <= 1))
        problems.push({
            location: probe.loc,
            severity: 'warning',
            code: 'probe-setting',
            message: 'none_of_above is a share between 0 and 1, e.g. none_of_above 0.2; ignored.',
        });
    const share = noneShare >= 0 && noneShare <= 1 ? noneShare : 0;
    const violating = violatingRows(slot.table, fd.lhs, fd.rhs);
    const paperMatch = settings.keyword_match === 'paper';
    const asOf = probeAsOf(scope.slots, probe, problems);
    /** The stem as asked: in its time when the data is dated (the stem and its options are the templates that may say when). */
    const asked = (stemText: string, s: number, template: string) =>
        asOf ? datedText(stemText, asOf, [template, ...options.map(o => optionTemplate(o, s).text)]) : stemText;
    const optionTemplate = (o: (typeof options)[number], stem: number) => o.templates[Math.min(stem, o.templates.length - 1)]!;

    /** Which option is false (undefined: all true) and its replacement value, drawn per entity and seed. */
    // A question that does not name the FD's whole left-hand side may be about several rows: said here, and the
    // rows whose question reads like another row's with other values are skipped (falsify below).
    for (const [s, stem] of stems.entries()) {
        const missing = missingAttributes([stem.parsed, ...options.map(o => optionTemplate(o, s).parsed)], fd.lhs);
        if (missing.length > 0) {
            problems.push({
                location: probe.loc,
                severity: 'warning',
                code: 'probe-choice-ambiguous',
                message: `The stem "${stem.text}" and its options do not name ${missing.map(m => `{${m}}`).join(', ')} of ${fd.id}'s left-hand side (${fd.lhs.join(', ')}), so a question may be about several ${relationLabel(rel)} rows; rows whose question reads like another row's with other values are skipped. Add ${missing.map(m => `{${m}}`).join(' and ')} to the stem.`,
            });
            break;
        }
    }
    /** Per stem and option: the rows a question's subject could mean (a false option is false of each). */
    // (Options a stem does not name share the stem's index: golds.ts subjectIndexes.)
    const indexOf = subjectIndexes(scope, slot.table);
    const subjects = stems.map(stem => options.map(o => indexOf(stem.parsed, o.attribute)));
    /** Per option: its distinct indexes under the stems (a false option must be false of every row any stem could mean). */
    const byStem = options.map((_, i) => [...new Set(subjects.map(byOption => byOption[i]!))]);
    /** The distinct (index, option) pairs whose rows must agree on that option (stems often share an index). */
    const agreements = options.flatMap((o, i) => byStem[i]!.map(index => ({ index, option: i, column: o.column! })));

    /**
     * Which option is false (undefined: all true) and its replacement value, drawn per entity and seed; null when
     * no drawn value is false of every row the question could mean (or an alias of the truth).
     */
    const falsify = (rows: Int32Array, key: readonly string[]): { index: number; fake: CellValue } | undefined | null => {
        const random = prng(hashSeed(`${probe.name}\u0000${key.join('\u0000')}`, seed));
        // Every row the question could mean must agree on every option, or "the false option" has no single answer.
        const row = rows[0]!;
        for (const { index: ix, option, column: col } of agreements) {
            if (ix.alone(row)) continue;
            for (const r of ix.rowsLike(row)) {
                const a = col.codes[r]!,
                    b = col.codes[row]!;
                if (
                    a !== b &&
                    (a < 0 ||
                        b < 0 ||
                        !sameUnderAliases(spec, data, rel.name, options[option]!.attribute, col.values[a]!, col.values[b]!))
                )
                    return null;
            }
        }
        if (share > 0 && random() < share) return undefined;
        for (let tries = 0; tries < 20; tries++) {
            const index = falsifiable[pick(random, falsifiable.length)]!;
            const col = options[index]!.column!;
            const truth = col.codes[rows[0]!]!;
            const n = col.size;
            let code = n === 2 ? 1 - truth : pick(random, n - 1);
            if (n > 2 && code >= truth) code++;
            const fake = col.values[code]!;
            if (falseOfEveryMeaning(spec, data, rel.name, byStem[index]!, slot.table, options[index]!.attribute, rows[0]!, fake))
                return { index, fake };
        }
        return null;
    };

    // `draws_from "<log>"`: the authors' recorded draws instead of ours (choice-draws.ts).
    let draws: RecordedDraws | undefined;
    if (settings.draws_from !== undefined) {
        const read = RecordedDraws.read(settings.draws_from, probe.loc.file);
        if (typeof read === 'string') return fail('probe-setting', read);
        draws = read;
    }
    /** The row's questions as the log recorded them: one per stem the log has for this entity. */
    const recordedItems = (rows: Int32Array, recorded: RecordedDraws): Item[] | 'invalid' => {
        const truthLookup = scope.lookup(rows);
        const items: Item[] = [];
        try {
            stems.forEach((stem, s) => {
                const stemText = render(stem.parsed, truthLookup);
                const truth = (o: number, text: string) =>
                    text.trim() === render(optionTemplate(options[o]!, s).parsed, truthLookup).trim();
                const read = (o: number, at: number, text: string) =>
                    readOption(optionTemplate(options[o]!, at).parsed, options[o]!.attribute, text);
                const expected = (o: number) => render(optionTemplate(options[o]!, s).parsed, truthLookup);
                const draw = recorded.find(
                    s,
                    stemText,
                    slot.table.lines[rows[0]!]! - 2,
                    options.map(o => ({ attribute: o.attribute, template: (at: number) => optionTemplate(o, at).parsed })),
                    truth,
                    read,
                    expected,
                );
                if (!draw) return;
                const falseAttr = options[draw.attributes[draw.gold - 1]!]!.attribute;
                const keywords = [scope.keywords(rows, 0, falseAttr, { relation: rel.name, attribute: falseAttr })];
                const question = `Q: ${asked(stemText, s, stem.text)} Provide an explanation.\n${draw.options.map((t, i) => `Option ${i + 1}: ${t}`).join('\n')}\nA: `;
                const template = [stem.text, ...draw.attributes.map(o => optionTemplate(options[o]!, s).text)].join('\n');
                const explain = `The ${labelOf(rel, falseAttr)} is ${keywords[0]!.map(k => k.value).join(', ')}, not ${draw.fake}.`;
                const item: Item = {
                    phrasing: `stem-${s + 1}`,
                    template,
                    question,
                    gold: draw.gold,
                    keywords,
                    options: draw.options,
                    explain,
                    falsified: { attribute: falseAttr, value: draw.fake },
                };
                item.facts = optionFacts(
                    rows,
                    draw.attributes.map(o => options[o]!.attribute),
                    draw.gold,
                    draw.fake,
                );
                if (paperMatch) item.keywordMatch = 'paper';
                if (stems.length > 1) item.group = { key: 'stems', relation: 'twins', role: item.phrasing };
                items.push(markDated(item, asOf));
            });
        } catch {
            return 'invalid';
        }
        return items.length ? items : 'invalid';
    };

    // The log is matched once, here, so that a log that fits no row is an error that says why (not a run with no
    // questions), and generation reads the matched rows' questions back.
    let recorded: Map<number, Item[]> | undefined;
    if (draws) {
        recorded = new Map();
        const rows = new Int32Array(1);
        for (let row = 0; row < slot.table.rowCount; row++) {
            rows[0] = row;
            if (scope.hasNull(rows) || violating?.[row]) continue;
            const items = recordedItems(rows, draws);
            if (items !== 'invalid') recorded.set(row, items);
        }
        if (draws.matched === 0) {
            problems.push({
                location: probe.loc,
                severity: 'error',
                code: 'draws-unmatched',
                message: unmatchedMessage(draws, probe.name),
                remedy: "Word the stems and options as the log does (the diff shows the first difference), or point draws_from at the log of this probe's questions.",
            });
            return undefined;
        }
    }

    /** Each option's fact (docs/facts.md): the falsified one shows its fake value. */
    function optionFacts(
        rows: Int32Array,
        attributes: readonly string[],
        falsified: number | undefined,
        fake: string | undefined,
        named?: RowName,
    ): FactRef[] {
        const facts: FactRef[] = [];
        for (let i = 0; i < attributes.length; i++) {
            const shown = falsified === i + 1;
            const extra: Partial<FactRef> = shown && fake !== undefined ? { option: i + 1, shown: fake } : { option: i + 1 };
            const fact = rowFact(scope, rows, 0, attributes[i]!, shown ? 'shown' : 'asked', extra, fd.lhs, named);
            if (fact) facts.push(fact);
        }
        return facts;
    }

    // What a question's id and explanation repeat for every row: a stem's template text (stem and options) and name, an option's label.
    const stemTemplates = stems.map((stem, s) => [stem.text, ...options.map(o => optionTemplate(o, s).text)].join('\n'));
    const phrasingNames = stems.map((_, s) => `stem-${s + 1}`);
    const labels = options.map(o => labelOf(rel, o.attribute));
    const optionAttributes = options.map(o => o.attribute);
    /** How the question lists option i: `Option 1: `, then `\nOption 2: `, … (joined once, not per question). */
    const optionHeads = options.map((_, i) => `${i ? '\n' : ''}Option ${i + 1}: `);
    /** A stem's group as its items give it (assemble makes each question's own group from it): one per stem, shared. */
    const stemGroups = phrasingNames.map(role => ({ key: 'stems', relation: 'twins', role }));
    let lastPath: { row: number; falsified: string | undefined; path: { nodes: KgNode[]; edges: KgEdge[] } } | undefined;
    /** The last row `items` read the key of, and that key: its falsification, facts and graph name the row by it. */
    let lastKey: { row: number; key: string[] } | undefined;
    return {
        probe,
        scope,
        system: share > 0 ? SYSTEM_CHOICE_NONE : SYSTEM_CHOICE,
        constraints: [fd.loc],
        summary: () =>
            draws
                ? `${draws.matched} questions from the draws recorded in ${draws.file}${draws.unusable.length ? `; ${draws.unusable.length} recorded questions not used (e.g. ${draws.unusable[0]})` : ''}.`
                : undefined,
        bind(row, rows) {
            rows[0] = row;
            if (scope.hasNull(rows)) return 'null';
            return violating?.[row] ? 'violating' : undefined;
        },
        items(rows) {
            if (recorded) return recorded.get(rows[0]!) ?? 'invalid';
            const key = keyValues(rel, slot.table, rows[0]!);
            lastKey = { row: rows[0]!, key };
            const f = falsify(rows, key);
            if (f === null) return 'invalid';
            const truthLookup = scope.lookup(rows);
            const fakeLookup = f
                ? scope.lookup(rows, { slot: 0, attribute: options[f.index]!.attribute, value: f.fake })
                : truthLookup;
            const optionTexts: string[][] = [];
            try {
                // A stem whose option has the same template as the stem before reuses that text (the default: one per option).
                for (let s = 0; s < stems.length; s++) {
                    const before = optionTexts[s - 1];
                    optionTexts.push(
                        options.map((o, i) =>
                            before && optionTemplate(o, s) === optionTemplate(o, s - 1)
                                ? before[i]!
                                : render(optionTemplate(o, s).parsed, f && f.index === i ? fakeLookup : truthLookup),
                        ),
                    );
                }
            } catch {
                return 'invalid';
            }
            const gold = f ? f.index + 1 : 'none';
            const falseAttr = f ? options[f.index]!.attribute : undefined;
            const fake = f ? format(f.fake as TemplateValue) : undefined;
            const keywords = falseAttr ? [scope.keywords(rows, 0, falseAttr, { relation: rel.name, attribute: falseAttr })] : [];
            const explain =
                f && falseAttr
                    ? `The ${labels[f.index]} is ${keywords[0]!.map(k => k.value).join(', ')}, not ${fake}.`
                    : 'All options are correct.';
            // The stems ask about the same facts (the same option falsified with the same value): one list, shared;
            // likewise what is falsified (read by the graph, never placed on the question).
            const facts = optionFacts(rows, optionAttributes, f ? f.index + 1 : undefined, fake, rowName(rel.name, key));
            const falsified = falseAttr ? { attribute: falseAttr, value: fake! } : undefined;
            /** What follows the stem: the options as listed, joined once when the stems share their texts. */
            let tail = '';
            return stems.map((stem, s): Item => {
                const texts = optionTexts[s]!;
                if (!s || !sameTexts(texts, optionTexts[s - 1]!)) {
                    let listed = '';
                    for (let i = 0; i < texts.length; i++) listed += optionHeads[i]! + texts[i]!;
                    tail = ` Provide an explanation.\n${listed}\nA: `;
                }
                const question = `Q: ${asked(render(stem.parsed, truthLookup), s, stem.text)}${tail}`;
                const item: Item = {
                    phrasing: phrasingNames[s]!,
                    template: stemTemplates[s]!,
                    question,
                    gold,
                    keywords,
                    options: texts,
                    explain,
                };
                item.facts = facts;
                if (paperMatch) item.keywordMatch = 'paper';
                // The stems ask one question three ways: the answers must agree.
                if (stems.length > 1) item.group = stemGroups[s]!;
                if (falsified) item.falsified = falsified;
                return markDated(item, asOf);
            });
        },
        path(rows, item) {
            // The stems of a row falsify the same option, so its items share one graph (as a row's items do in
            // the families whose graph is per row).
            if (lastPath && lastPath.row === rows[0] && lastPath.falsified === item.falsified?.attribute) return lastPath.path;
            const entity = entityNode(scope, rows, 0, 0, true, lastKey?.row === rows[0] ? lastKey.key : undefined);
            const nodes: KgNode[] = [entity];
            const edges: KgEdge[] = [];
            // A plain loop, not a closure per call: the left-hand side given at hop 0, then the options at hop 1.
            for (let i = 0; i < fd.lhs.length + options.length; i++) {
                const lhs = i < fd.lhs.length;
                const a = lhs ? fd.lhs[i]! : options[i - fd.lhs.length]!.attribute;
                const n = valueNode(scope, rows, 0, a, lhs ? 0 : 1, lhs || item.falsified?.attribute !== a);
                nodes.push(n);
                edges.push({ from: entity.id, to: n.id, label: a, hop: lhs ? 0 : 1 });
            }
            lastPath = { row: rows[0]!, falsified: item.falsified?.attribute, path: { nodes, edges } };
            return lastPath.path;
        },
    };
}

/**
 * How the rationale's keywords are looked for: `words` (default: whole words of the rationale, folded, aliases,
 * contradictions) or `paper` (the ERBench authors' check_reasoning: lower-case substrings of the whole response).
 */
const KEYWORD_MATCHES = ['words', 'paper'] as const;

/**
 * The ERBench authors' M rule for multiple choice: an answer naming no option that uses one of their decline
 * words counts as unsure (M), not "None of the above" (AUTHORS_DECLINE_WORDS in the reader).
 */
export function parseChoiceAnswer(response: string, q: Pick<Question, 'options' | 'answerRule'>): ParsedAnswer {
    const parsed = parseChoice(response, q.options?.length ?? 0, q.options, q.answerRule === 'paper' ? 'paper' : undefined);
    return parsed.answer === 'none' && AUTHORS_DECLINE_WORDS.test(response)
        ? { ...parsed, answer: 'unsure', why: `${parsed.why ?? 'no option'}; a decline word (authors' M rule)` }
        : parsed;
}

/** Do two stems' option lists hold the same texts, in order? */
function sameTexts(a: readonly string[], b: readonly string[]): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
}

const stemNames = (count: number) => Array.from({ length: count }, (_, i) => `stem-${i + 1}`);

/** The settings a choice probe reads, declared once (src/core/spec/settings.ts) and read through this table. */
const CHOICE_SETTINGS = declareSettings('probe choice', {
    none_of_above: {
        type: 'number',
        min: 0,
        max: 1,
        default: 0,
        doc: 'The share of all-true questions whose answer is "none of the above", e.g. none_of_above 0.2 (default 0).',
    },
    subject: { type: 'text', doc: 'How the stem names the entity (default: "the <relation> whose <key>").' },
    draws_from: {
        type: 'text',
        doc: "An ERBench log file: ask the published questions' draws (which option was falsified, and with what).",
    },
    keyword_match: {
        type: 'text',
        values: KEYWORD_MATCHES,
        default: 'words',
        doc: "How the rationale's keyword is looked for: words (default: whole words of the rationale, aliases, contradictions) or paper (the ERBench authors' rule: a lower-case substring anywhere in the response, with the aliases' spellings).",
    },
});

export const choiceFamily: ProbeFamily = {
    core: {
        kind: 'choice',
        title: 'multiple choice from one FD: one option per right-hand-side attribute, exactly one falsified',
        docs: 'probes.md#multiple-choice-probes-one-option-per-right-hand-side-attribute',
        target: 'fd',
        example: "write 'using <fd name>'; its right-hand side gives the options",
        members: ['stem', 'option'],
        readAs: 'option',
        settings: [...ANSWER_SETTINGS.decls, ...CHOICE_SETTINGS.decls],
        compile: ({ spec, data, probe, problems, seed }) => choicePlan(spec, data, probe, problems, seed),
        phrasings: probe => stemNames(probe.stems.length > 0 ? probe.stems.length : DEFAULT_STEMS.length),
        pathPerItem: true,
        parse: parseChoiceAnswer,
        score: (q, parsed) => ({
            correct: q.gold === 'none' ? parsed.answer === 'none' : parsed.answer === 'option' && parsed.option === q.gold,
        }),
        measured: true,
        decidesKnowledge: false,
    },
    figures: {
        extras: items => ({
            multiple: figure(items.filter(i => i.v.answer === 'multiple').length, items.length),
            binding: figure(items.filter(i => i.v.answer === 'binding').length, items.length),
        }),
        meanOverPhrasings: true,
        columns: [
            { name: 'multiple_answer', value: g => g.multiple?.value ?? null },
            { name: 'binding', value: g => g.binding?.value ?? null },
        ],
    },
    report: {
        groupJson: g => ({
            ...(g.multiple ? { multiple: { value: round4(g.multiple.value), ci: roundCi(g.multiple.ci) } } : {}),
            ...(g.binding ? { binding: { value: round4(g.binding.value), ci: roundCi(g.binding.ci) } } : {}),
        }),
        sections: groups => {
            const rows = groups
                .filter(g => g.multiple && g.binding && !g.na)
                .map(g => [
                    ...keyCells(g),
                    `${pct(g.multiple!.value)} ${ciText(g.multiple!.ci)}`,
                    `${pct(g.binding!.value)} ${ciText(g.binding!.ci)}`,
                ]);
            return rows.length
                ? [{ title: 'Multiple choice errors', columns: [...LABEL_PARTS, 'multiple-answer', 'binding'], rows }]
                : [];
        },
        // MC: the mean over the stems (the paper's number), or the only stem's group.
        paperColumns: groups => {
            const mean = groups.find(g => g.phrasing === 'mean') ?? (groups.length === 1 ? groups[0] : undefined);
            return mean ? [{ column: 'MC', cells: plainCells(mean) }] : [];
        },
    },
    simulator: {
        answerText: (q, gold) => {
            if (gold === 'none') return 'None of the options is correct.';
            const n = Number(gold);
            // As the paper's models answer ("Option 3: …"), so the reader takes the option the simulator meant.
            return `Option ${n}:${q.options?.[n - 1] ? ` ${q.options[n - 1]}` : ''}`;
        },
        guess: (q, draw) => {
            const n = q.options?.length ?? 0;
            return n ? 1 + Math.floor(draw('guess') * n) : 'none';
        },
    },
};
