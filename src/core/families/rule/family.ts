/**
 * Rule probes (HalluVault / Drowzee, METHODS.md §2): `probe NAME rule using RULE { … }`. The rules are evaluated
 * over the data (evaluate.ts); every derived fact of RULE gives a metamorphic question group — the fact
 * ("Is it true that …?", gold yes), its polarity twin (gold no) and, for a symmetric rule or one with an inverse,
 * the fact read the other way (gold yes). Each question carries the fact and its proof; the rationale is checked
 * premise by premise (claims.ts), and the group is judged without any gold (`metamorphic`, verify/groups.ts).
 */
import type { ProbeFamily } from '../../probes/contract/family.js';
import type { CompileInput, GroupRelation } from '../../probes/contract/core.js';
import type { QuestionGraph } from '../../../protocol/webview.js';
import { checkRuleAnswer, LOW_OVERLAP, premiseStatuses, ruleClaimMarks } from './claims.js';
import { ruleModelSteps } from './embed-run.js';
import { planFailure, type Item, type Plan } from '../../probes/plan.js';
import { datedText, markDated, relationsAsOf } from '../../probes/as-of.js';
import type { Keyword, Question } from '../../probes/question.js';
import type { HopVerdict, Verdict } from '../../verify/types.js';
import type { RuleQuestion } from './types.js';
import { factRef } from '../../probes/facts.js';
import type { FactRef } from '../../probes/question.js';
import type { Fact, FactBase, Proof } from '../../rules/ir.js';
import type { LoadedData } from '../../data/types.js';
import type { ProbeDecl, SpecModel } from '../../spec/model.js';
import { RULE_SETTINGS } from './settings.js';
import { KEY_SEPARATOR } from '../../rules/ir.js';
import { keyValues, labelOf, Scope, slotFor } from '../../probes/scope.js';
import { hashSeed, prng } from '../../probes/sampling.js';
import { parseBinary } from '../../verify/answer.js';
import type { Proposition } from '../../reader/index.js';
import { keywordForms } from '../../verify/aliases.js';
import { ANSWER_SETTINGS, scoreYesNo, yesNoText } from '../../probes/answers.js';
import { fkPredicate, translateRules } from '../../rules/translate.js';
import { evaluate } from '../../rules/evaluate.js';
import { editorProgram, oversizedMessage, oversizedRules, type RuleSize } from '../../rules/sizes.js';
import { baseFacts } from '../../rules/facts.js';
import { soundProof } from '../../rules/soundness.js';
import { compositeKeyRefusal } from './composite.js';
import {
    display,
    entityName,
    fill,
    fillPhrase,
    PAPER_NOUN_PHRASINGS,
    PAPER_SENTENCE_PHRASINGS,
    PAPER_SYSTEM,
    paperUserTurn,
    questionOf,
    premisesOf,
    RULE_SYSTEM,
    ruleTemplates,
    type EntityNamer,
    type Premise,
} from './questions.js';
import { proofPath } from './graph.js';
import { ruleExtras, ruleFigureColumns, ruleSections } from './metrics.js';
import { RULE_SIMULATOR_RATES, simulateRuleAnswer } from './simulate.js';
import {
    intervalFacts,
    intervalPremises,
    nearestInterval,
    rowName,
    temporalQuestion,
    temporalSetup,
    type TemporalFact,
    type TemporalSetup,
} from './temporal.js';

const RULE_GROUP = 'metamorphic';
/** The phrasing of a fact read the other way (its symmetric or inverse reading). */
const READING = 'reading';

/** Where a base predicate's facts sit in the data: the relation and attribute a premise names. */
function premiseAttribute(
    spec: SpecModel,
): (pred: string) => { relation: string; attribute: string; label: string; key: boolean } | undefined {
    const withLabel = (relation: string, attribute: string) => {
        const rel = spec.relations.find(r => r.name === relation);
        // The attributes an entity is named by (its first key): reading one states nothing to know.
        return {
            relation,
            attribute,
            label: rel ? labelOf(rel, attribute) : attribute,
            key: rel?.keys[0]?.includes(attribute) ?? false,
        };
    };
    return pred => {
        if (pred.startsWith('fk:')) {
            const fk = spec.fks.find(f => fkPredicate(f) === pred);
            // An fk edge links two entities: it is a fact even where both carry the same name.
            return fk ? { ...withLabel(fk.from.relation, fk.from.attributes[0]!), key: false } : undefined;
        }
        const dot = pred.indexOf('.');
        return dot > 0 ? withLabel(pred.slice(0, dot), pred.slice(dot + 1)) : undefined;
    };
}

/**
 * The program's facts for every rule probe of one spec and data, evaluated once (with the base facts); or, when a
 * rule without a cap would derive too many facts (estimate.ts), the rules refused, and nothing derived. For the
 * editor every rule is bounded by EDITOR_FACT_LIMIT (a seeded sample, drawn in bounded work).
 */
type Derived = { derivation: ReturnType<typeof evaluate>; base: FactBase } | { oversized: RuleSize[] };
const derivations = new WeakMap<LoadedData, Map<SpecModel, Derived>>();
const editorDerivations = new WeakMap<LoadedData, Map<SpecModel, Derived>>();
function derive(
    spec: SpecModel,
    data: LoadedData,
    program: Parameters<typeof evaluate>[0],
    seed: number,
    editor: boolean,
): Derived {
    const memo = editor ? editorDerivations : derivations;
    let bySpec = memo.get(data);
    if (!bySpec) memo.set(data, (bySpec = new Map()));
    let d = bySpec.get(spec);
    if (!d) {
        const base = baseFacts(spec, data);
        const oversized = oversizedRules(program, base);
        bySpec.set(
            spec,
            (d = oversized.length
                ? { oversized }
                : { derivation: evaluate(editor ? editorProgram(program) : program, base, { seed }), base }),
        );
    }
    return d;
}

function rulePlan(input: CompileInput): Plan | undefined {
    const { spec, data, probe, problems, seed } = input;
    const fail = planFailure(problems, probe);
    if (!probe.rule)
        return fail('probe-target', `Probe ${probe.name} needs a rule: write 'probe ${probe.name} rule using <rule name>'.`);
    const translation = translateRules(spec);
    // The rules' problems are language diagnostics (validation/rules.ts), reported once where they are written.
    if (translation.problems.length > 0) return undefined;
    const info = translation.predicates.get(probe.rule);
    if (!info || info.params.length === 0) return fail('probe-target', `No rule named ${probe.rule}.`);
    const subject = info.params[0]!.type;
    const slot = slotFor(spec, data.tables, subject);
    if (typeof slot === 'string') return fail('probe-data', slot);
    const templates = ruleTemplates(probe, info);
    if (typeof templates === 'string') return fail('probe-phrasing', templates);
    const refused = compositeKeyRefusal(spec, translation.program, translation.predicates, probe.rule);
    if (refused) return fail('rule-composite-key', refused);
    const derived = derive(spec, data, translation.program, seed, input.editor ?? false);
    if ('oversized' in derived) {
        // Located at each rule refused (once, whichever probe met it first).
        for (const e of derived.oversized) {
            const loc = translation.predicates.get(e.rule)?.loc ?? probe.loc;
            if (!problems.some(p => p.code === 'rule-too-large' && p.location === loc))
                problems.push({ location: loc, severity: 'error', code: 'rule-too-large', message: oversizedMessage(e) });
        }
        return undefined;
    }
    const { derivation, base } = derived;
    const temporal = temporalSetup(spec, probe, info);
    if (typeof temporal === 'string') return fail('probe-setting', temporal);
    const models = modelSettingsProblem(spec, probe);
    if (models) return fail('probe-setting', models);
    const settings = RULE_SETTINGS.read(probe.settings);
    const perEntity = settings.per_entity;
    if (perEntity < 1)
        return fail(
            'probe-setting',
            'per_entity is how many derived facts to ask about per entity: a whole number of at least 1, e.g. per_entity 2.',
        );

    // The derived facts by subject; a symmetric fact is asked once (its twin is the other reading). A temporal
    // probe asks about interval facts instead (temporal.ts).
    const bySubject = groupBy(
        derivation.facts(probe.rule).filter(f => !info.symmetric || String(f.args[0]) <= String(f.args[1])),
        f => String(f.args[0]),
    );
    const allIntervals = temporal ? intervalFacts(derivation.facts(probe.rule), temporal, base) : [];
    const intervalsBySubject = temporal ? groupBy(allIntervals, f => String(f.args[0])) : undefined;
    const scope = new Scope([slot], [{ slot: 0 }]);
    const attributeOf = premiseAttribute(spec);
    const inverse = info.inverse ? translation.predicates.get(info.inverse) : undefined;
    const twinRole = info.symmetric ? 'symmetric' : inverse?.phrase !== undefined ? 'inverse' : undefined;
    // Facts whose proof rests on a row that breaks a declared FD are not asked (the FD a negation rests on fails there).
    const holds = soundProof(spec, data, translation.program);
    const sound = (f: Fact) => {
        const p = derivation.proof(f);
        return p !== undefined && holds(p);
    };
    let current: Fact[] = [];
    let currentIntervals: TemporalFact[] = [];
    let subjectIntervals: TemporalFact[] = [];

    const withForms = (p: Premise): Premise => {
        const rel = spec.relations.find(r => r.name === p.relation);
        const keyAttribute = rel?.keys[0]?.[0];
        const subject = keyAttribute
            ? keywordForms(spec, data, p.relation, keyAttribute, p.subject).alternatives.map(a => a.text)
            : [];
        // A composite key reads "Avatar (2009)"; its first part alone names it too.
        if (p.subject.includes(' (')) subject.push(p.subject.slice(0, p.subject.indexOf(' (')));
        const value = keywordForms(spec, data, p.relation, p.attribute, p.value).alternatives.map(a => a.text);
        return subject.length || value.length ? { ...p, forms: { subject, value } } : p;
    };
    const lowOverlap = settings.low_overlap;
    // `prompt paper`: the user turn is the paper's, the question quoted inside it with the instruction and example.
    const paperPrompt = settings.prompt === 'paper';
    const asked = (text: string) => (paperPrompt ? paperUserTurn(text) : text);
    const named: EntityNamer = (relation, v) =>
        entityName(
            spec.relations.find(r => r.name === relation),
            v,
        );
    const question = (f: Fact, proof: Proof): Omit<RuleQuestion, 'role'> => ({
        pred: f.pred,
        args: f.args.map(display),
        fact: f,
        proof,
        premises: premisesOf(proof, attributeOf).map(withForms),
        lowOverlap,
    });

    const temporalItems = (setup: TemporalSetup, facts: readonly TemporalFact[], ofSubject: readonly TemporalFact[]): Item[] => {
        const items: Item[] = [];
        for (const tf of facts) {
            // `before` pairs the fact with a fact of another subject (two different events).
            const q = temporalQuestion(
                setup,
                info,
                tf,
                ofSubject,
                prng(hashSeed(`${probe.name}\u0000${tf.args.join('\u0000')}`, seed)),
                named,
                allIntervals,
            );
            if (!q) continue;
            const stated = [
                nearestInterval(tf, q.year),
                ...(q.other ? [nearestInterval(q.other, q.otherYear ?? q.years[0])] : []),
            ];
            const proof = derivation.proof(stated[0]!.fact);
            if (!proof || stated.some(i => !sound(i.fact))) continue;
            const rule = question(stated[0]!.fact, proof);
            // An interval row is named by its key without the years ("Cristiano Ronaldo (Manchester United)"): reading
            // the key parts the name carries states nothing to know; its other facts and its years are premises.
            const ofRow = (p: Premise): Premise[] =>
                p.relation !== setup.relation || !p.nodes
                    ? [p]
                    : setup.named.includes(p.attribute)
                      ? []
                      : [{ ...p, subject: rowName(setup, p.nodes[0].slice('node:'.length)) }];
            rule.premises = dedupe(
                [
                    ...stated.flatMap(i => {
                        const p = derivation.proof(i.fact);
                        return p ? premisesOf(p, attributeOf).flatMap(ofRow) : [];
                    }),
                    ...stated.flatMap(i => intervalPremises(setup, i, attributeOf)),
                ].map(withForms),
            );
            const keywords: Keyword[][] = rule.premises.map(p => [
                { relation: p.relation, attribute: p.attribute, value: p.value },
            ]);
            const groupKey = [...tf.args.map(String), setup.op, q.year, q.other?.args.join('\u0000') ?? ''].join('\u0000');
            const temporalInfo = {
                op: setup.op,
                formula: settings.temporal ?? '',
                year: q.year,
                years: q.years,
                ...(q.other ? { other: q.other.args.map(display) } : {}),
            };
            const facts = ruleFacts(rule, `${setup.op} ${q.year}`, q.gold === 'yes');
            const item = (name: string, text: string, gold: 'yes' | 'no', role: string): Item => ({
                phrasing: name,
                template: `${text}\u0000${groupKey}`,
                question: asked(text),
                gold,
                keywords,
                explain: explainOf(rule.premises),
                group: { key: groupKey, relation: RULE_GROUP, role },
                rule: { ...rule, role, temporal: temporalInfo },
                facts,
            });
            items.push(
                item('basic', q.basic, q.gold, 'fact'),
                item('negated', q.negated, q.gold === 'yes' ? 'no' : 'yes', 'polarity'),
            );
        }
        return items;
    };

    return {
        probe,
        scope,
        system: settings.system ?? (paperPrompt ? PAPER_SYSTEM : RULE_SYSTEM),
        constraints: [probe.loc],
        bind(row, rows) {
            rows[0] = row;
            const key = keyValues(slot.relation, slot.table, row).join(KEY_SEPARATOR);
            const seedOf = hashSeed(`${probe.name}\u0000${key}`, seed);
            if (intervalsBySubject) {
                subjectIntervals = intervalsBySubject.get(key) ?? [];
                if (subjectIntervals.length === 0) return 'underived';
                currentIntervals = sample(subjectIntervals, perEntity, seedOf);
                return undefined;
            }
            const all = bySubject.get(key);
            if (!all || all.length === 0) return 'underived';
            const facts = all.filter(sound);
            if (facts.length === 0) return 'violating';
            current = sample(facts, perEntity, seedOf);
            return undefined;
        },
        items() {
            if (temporal) return temporalItems(temporal, currentIntervals, subjectIntervals);
            const items: Item[] = [];
            for (const f of current) {
                const proof = derivation.proof(f);
                if (!proof) continue;
                const rule = question(f, proof);
                const keywords: Keyword[][] = rule.premises.map(p => [
                    { relation: p.relation, attribute: p.attribute, value: p.value },
                ]);
                const groupKey = f.args.map(String).join('\u0000');
                const facts = ruleFacts(rule, 'holds', true);
                // Facts derived from dated data (`as of 2019`) are asked in that time, as the other families ask theirs.
                const at = relationsAsOf(rule.premises.map(p => spec.relations.find(r => r.name === p.relation) ?? {}));
                const item = (name: string, text: string, gold: 'yes' | 'no', role: string, source: string): Item =>
                    markDated(
                        {
                            phrasing: name,
                            template: `${text}\u0000${groupKey}`,
                            question: asked(at ? datedText(text, at, [source]) : text),
                            gold,
                            keywords,
                            explain: explainOf(rule.premises),
                            group: { key: groupKey, relation: RULE_GROUP, role },
                            rule: { ...rule, role },
                            facts,
                        },
                        at,
                    );
                for (const t of templates) items.push(item(t.name, fill(t.text, info, f.args, named), t.gold, t.role, t.text));
                const basic = templates.find(t => t.gold === 'yes');
                if (twinRole === 'symmetric' && basic)
                    items.push(
                        item(READING, fill(basic.text, info, [...f.args].reverse(), named), 'yes', 'symmetric', basic.text),
                    );
                if (twinRole === 'inverse' && inverse)
                    items.push(
                        item(
                            READING,
                            `Is it true that ${fillPhrase(inverse.phrase!, inverse, [...f.args].reverse(), named)}?`,
                            'yes',
                            'inverse',
                            inverse.phrase!,
                        ),
                    );
            }
            return items;
        },
        path(_rows, item) {
            return item.rule ? proofPath(item.rule.proof, info) : { nodes: [], edges: [] };
        },
    };
}

/** `extract_with` / `embeddings` name a model of the spec (or a provider:id flag); `similarity` is a cosine in (0, 1]. */
function modelSettingsProblem(spec: SpecModel, probe: Parameters<typeof ruleTemplates>[0]): string | undefined {
    const settings = RULE_SETTINGS.read(probe.settings);
    const models: [string, string | undefined][] = [
        ['extract_with', settings.extract_with],
        ['embeddings', settings.embeddings],
    ];
    for (const [setting, v] of models) {
        if (v !== undefined && !v.includes(':') && !spec.models.some(m => m.name === v)) {
            return `${setting} names a model declared in the spec (model NAME openai { id "…" endpoint "…" }) or provider:id; '${v}' is neither. Declared: ${spec.models.map(m => m.name).join(', ') || 'none'}.`;
        }
    }
    const sim = settings.similarity;
    if (!(sim > 0 && sim <= 1))
        return `similarity is the cosine at which two embeddings match: a number in (0, 1], e.g. similarity 0.8 (the paper's).`;
    const low = settings.low_overlap;
    if (!(low > 0 && low <= 1))
        return `low_overlap is the node / edge overlap below which a wrong answer's overlap counts as low (the paper's categories): a number in (0, 1], e.g. low_overlap ${LOW_OVERLAP} (the default).`;
    return undefined;
}

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
    const out = new Map<string, T[]>();
    for (const x of xs) {
        const k = key(x);
        let list = out.get(k);
        if (!list) out.set(k, (list = []));
        list.push(x);
    }
    return out;
}

/** Premises stated once each (two intervals of an until question may share a row's facts). */
/**
 * A rule question's facts (docs/facts.md): each premise (a base fact of the proof: its row's key from the proof's
 * node, the attribute, the value) and the derived fact, named by the rule and its arguments, with its proof.
 */
function ruleFacts(rule: Pick<RuleQuestion, 'pred' | 'args' | 'premises'>, attribute: string, holds: boolean): FactRef[] {
    // Premise i is the verdict's hop i + 1 (premiseHops).
    const premises = rule.premises.map((p, i) =>
        factRef(
            p.relation,
            p.nodes ? p.nodes[0].slice('node:'.length).split(KEY_SEPARATOR) : [p.subject],
            p.attribute,
            p.value,
            'premise',
            { hop: i + 1 },
        ),
    );
    return [
        ...premises,
        factRef(rule.pred, rule.args, attribute, holds ? 'true' : 'false', 'conclusion', { proof: premises.map(f => f.label) }),
    ];
}

function dedupe(premises: Premise[]): Premise[] {
    const seen = new Set<string>();
    return premises.filter(p => {
        const k = `${p.pred}\u0000${p.subject}\u0000${p.value}`;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
    });
}

function sample<T>(facts: T[], n: number, seed: number): T[] {
    if (facts.length <= n) return facts;
    const random = prng(seed);
    const order = facts.map((f, i) => ({ f, r: random(), i })).sort((a, b) => a.r - b.r || a.i - b.i);
    return order
        .slice(0, n)
        .sort((a, b) => a.i - b.i)
        .map(x => x.f);
}

/** The sentences a demonstration gives: one per premise. */
function explainOf(premises: Premise[]): string {
    return premises.map((p, i) => `${i + 1}. The ${p.label ?? p.attribute} of ${p.subject} is ${p.value}.`).join('\n');
}

const UNDECIDED = new Set(['unsure', 'unparseable', 'dont_know']);

/**
 * A derived fact asked as itself, as its polarity twin and read the other way (symmetric / inverse; rule probes):
 * the twin's answer must differ from the fact's and the other reading's must agree — no gold needed.
 */
const metamorphicRelation: GroupRelation = {
    name: 'metamorphic',
    title: 'a derived fact, its polarity twins, paraphrases and symmetric / inverse reading: each twin answered opposite, each paraphrase and reading the same',
    outcomes: ['consistent', 'polarity-broken', 'paraphrase-broken', 'symmetry-broken', 'undecided'],
    judge(members) {
        const fact = members.find(m => m.q.group?.role === 'fact');
        if (!fact || members.some(m => UNDECIDED.has(m.v.answer))) return { outcome: 'undecided', ok: null };
        const twins = members.filter(m => m !== fact);
        const polarity = twins.find(m => m.q.group?.role === 'polarity' && m.v.answer === fact.v.answer);
        if (polarity)
            return {
                outcome: 'polarity-broken',
                ok: false,
                detail: `fact → ${fact.v.answer}, polarity twin (${polarity.q.phrasing}) → ${polarity.v.answer}`,
            };
        const paraphrase = twins.find(m => m.q.group?.role === 'paraphrase' && m.v.answer !== fact.v.answer);
        if (paraphrase)
            return {
                outcome: 'paraphrase-broken',
                ok: false,
                detail: `fact → ${fact.v.answer}, paraphrase (${paraphrase.q.phrasing}) → ${paraphrase.v.answer}`,
            };
        const reading = twins.find(m => m.q.group?.role !== 'polarity' && m.v.answer !== fact.v.answer);
        if (reading)
            return {
                outcome: 'symmetry-broken',
                ok: false,
                detail: `fact → ${fact.v.answer}, ${reading.q.group?.role} reading → ${reading.v.answer}`,
            };
        return { outcome: 'consistent', ok: true };
    },
};

/** The panel's view of a rule answer: the proof's claims, and each premise's hop with the status the rationale gives it. */
function ruleGraph(out: QuestionGraph, q: Question, v: Verdict | undefined): QuestionGraph {
    if (!q.rule) return out;
    // The question is about the derived fact: the proof's root (proofPath adds it first), not every derived step.
    if (out.path.nodes[0]) out.focus = [out.path.nodes[0].id];
    if (!v) return out;
    out.claims = ruleClaimMarks(q, v);
    const premises = premiseStatuses(q, v) ?? [];
    // A premise's hop takes the premise's status; a value the verifier saw said of another subject is not its conflict.
    out.hops = out.hops.map((h, i) => {
        const status = premises[i];
        if (!status || status === h.status) return h;
        return {
            hop: h.hop,
            status,
            keywords: h.keywords.map(k => ({
                value: k.value,
                status,
                ...(status === 'contradicted' && k.conflict ? { conflict: k.conflict } : {}),
            })),
        };
    });
    const failed = out.hops.find(h => h.status !== 'found');
    if (failed) out.failedHop = failed.hop;
    else delete out.failedHop;
    return out;
}

/** The phrasings of a probe without its own: `templates paper` (not on a temporal probe) gives the paper's, by whether the rule has a `noun`. */
function paperPhrasings(probe: ProbeDecl): readonly string[] {
    const s = RULE_SETTINGS.read(probe.settings);
    if (s.templates !== 'paper' || s.temporal) return ['basic', 'negated'];
    return s.noun !== undefined ? PAPER_NOUN_PHRASINGS : PAPER_SENTENCE_PHRASINGS;
}

/**
 * A rule verdict's hops from its premises (claims.ts), not from keywords found anywhere: premise i is hop i + 1, found
 * only where a point states it; denied or stated otherwise, contradicted; a premise the question does not need
 * (optional) may be missing without failing the rationale.
 */
function premiseHops(q: Question, v: Verdict): { hops: HopVerdict[]; rationale: boolean; failedHop?: number } | undefined {
    const check = checkRuleAnswer(q, v);
    if (!check || check.premises.length !== v.hops.length) return undefined;
    const hops = v.hops.map((h, i): HopVerdict => {
        const p = check.premises[i]!;
        const status = p === 'supported' ? 'found' : p === 'negated' ? 'contradicted' : p;
        if (status === h.status) return h;
        return { ...h, status, keywords: h.keywords.map(k => ({ ...k, status, ...(status === 'found' ? {} : { spans: [] }) })) };
    });
    const failed = hops.findIndex((h, i) => h.status !== 'found' && !(h.status === 'missing' && check.optional?.[i]));
    return { hops, rationale: hops.length > 0 && failed < 0, ...(failed >= 0 ? { failedHop: failed + 1 } : {}) };
}

/**
 * The question's proposition as the reader weighs an answer with no verdict word (reader/proposition.ts): the
 * entities the fact names and the relation's names (the rule's and the probe's), with the question as asked. None
 * for a temporal question: its time is a formula ("in the year after 2005", "until …") a statement's words do not match.
 */
function propositionOf(q: Question | undefined): Proposition | undefined {
    if (!q?.rule || q.rule.temporal) return undefined;
    return { question: questionOf(q.question), entities: q.rule.args, names: [q.rule.pred, q.probe] };
}

export const ruleFamily: ProbeFamily = {
    core: {
        kind: 'rule',
        title: 'yes / no questions about facts derived by a logic rule, each with its proof, its polarity twin and its symmetric or inverse twin',
        docs: 'probes.md#rule-probes',
        target: 'rule',
        example: "write 'using <rule name>' with a rule declared 'rule NAME(a: R, b: S) :- …'",
        members: ['phrasing'],
        settings: [...ANSWER_SETTINGS.decls, ...RULE_SETTINGS.decls],
        compile: rulePlan,
        phrasings: probe => [...(probe.phrasings.length ? probe.phrasings.map(p => p.name) : paperPhrasings(probe)), READING],
        pathPerItem: true,
        parse: (response, question) => parseBinary(response, question, propositionOf(question)),
        score: scoreYesNo,
        measured: true,
        decidesKnowledge: false,
        groupRelations: [metamorphicRelation],
        rationaleHops: premiseHops,
    },
    figures: { extras: items => ruleExtras(items), columns: ruleFigureColumns },
    graph: { questionGraph: ruleGraph },
    modelSteps: { afterVerification: ruleModelSteps },
    report: { sections: groups => ruleSections(groups) },
    simulator: {
        answerText: yesNoText,
        guess: (_q, draw) => (draw('guess') < 0.6 ? 'yes' : 'no'),
        rates: RULE_SIMULATOR_RATES,
        simulate: simulateRuleAnswer,
    },
};
