/**
 * The `open` probe family (issue 17, OKGQA): `probe NAME open about RELATION [with RELATION] { ask "…" }`.
 * Each entity (or FK-linked pair) gives one question asked several ways, one question group (relation
 * `levels`): with no context (the zero-context baseline), with the context retrieved from the data's graph,
 * and with that context perturbed at each level. The prompt sent is the question, "Below are the facts …",
 * the context, "Answer:". Answers are scored claim by claim against the data's facts stored with the question.
 *
 * Settings: preset (a group — descriptive, explanatory, predictive, comparative, critical — or one of its two
 * sub-types, OPEN_SUBTYPES; used when there is no `ask`), form (triplets | paths | subgraph), k, triplets, paths, max_nodes, perturb (a kind or a list:
 * swap, replace, rewire, delete), levels (list of shares), baseline (true), prizes (question | ppr: node and edge
 * prizes from the question's similarity, or from PageRank alone), embeddings (a model whose vectors give the
 * question's similarity and the plausibility of replaced relations; BM25 and the type heuristic without it).
 */
import type { ProbeDecl, Settings, SpecModel } from '../../spec/model.js';
import type { LoadedData } from '../../data/types.js';
import { render } from '../../spec/template.js';
import { buildDataGraph, type DataGraph } from '../../kg/data-graph.js';
import { FkJoin } from '../../kg/graph.js';
import { keyAttributes, keyValues, Scope, slotFor, type TemplateSlot } from '../../probes/scope.js';
import { hashSeed } from '../../probes/sampling.js';
import type { ProbeFamily } from '../../probes/contract/family.js';
import type { CompileInput, GroupRelation } from '../../probes/contract/core.js';
import type { ReportCurve, ReportSection } from '../../probes/contract/report.js';
import type { ClaimMark, QuestionGraph } from '../../../protocol/webview.js';
import type { Verdict } from '../../verify/types.js';
import type { Item, Plan } from '../../probes/plan.js';
import type { FactRef, KgPath, Question } from '../../probes/question.js';
import { rowFact } from '../../probes/facts.js';
import { ciText, pct } from '../../report/numbers.js';
import { figure, figuresOf, type Figure, type GroupMetrics } from '../../verify/figures.js';
import { keywordForms } from '../../verify/aliases.js';
import {
    PRIZE_SOURCES,
    retrieve,
    RETRIEVAL_DEFAULTS,
    type PrizesFrom,
    type QuestionSimilarity,
    type RetrievalSettings,
} from './retrieve.js';
import { openPrompt } from './render.js';
import { perturb, PERTURBATION_KINDS, type TriplePlausibility } from './perturb.js';
import { cosine } from '../../models/cosine.js';
import { sc2d, sd2 } from './similarity.js';
import { factsAbout, summariseClaims } from './check.js';
import { openClaims } from './answer.js';
import { simulatedOpenAnswer } from './simulate.js';
import type { ClaimVerdict, ContextGraph, ContextNode, OpenQuestion, PerturbationKind, RetrievalForm } from './types.js';
import { LABEL_PARTS, keyCells } from '../../report/labels.js';
import { factScore, readClaimsAnswer } from '../../reader/index.js';
import { decidingClaims } from '../../verify/reading.js';
import { declareSettings } from '../../spec/settings.js';
import {
    GEVAL_CRITERIA,
    GEVAL_RUBRIC,
    gevalCalls,
    judgeFigures,
    judgeOpenAnswers,
    JUDGE_CORRECT_FROM,
    type JudgeFigures,
} from './judge.js';

const SYSTEM_OPEN = 'Answer the question in a few sentences. State facts plainly.';

/**
 * OKGQA's ten question sub-types in its five groups, each for one entity ({a}) and for a pair ({a}, {b}). The
 * groups are the paper's; the sub-type names and wordings are ours (templates in the paper's spirit, e.g. its
 * "Explain the relationship between [entity A] and [entity B] and its significance.").
 */
export const OPEN_SUBTYPES: Record<string, { group: string; single: string; pair: string }> = {
    overview: {
        group: 'descriptive',
        single: 'Describe {a} and what is notable about it.',
        pair: 'Describe how {a} and {b} are connected.',
    },
    characteristics: {
        group: 'descriptive',
        single: 'What are the main characteristics of {a}?',
        pair: 'What are the main characteristics of {a} and {b}, and which do they share?',
    },
    relationship: {
        group: 'explanatory',
        single: 'Explain the significance of {a}.',
        pair: 'Explain the relationship between {a} and {b} and its significance.',
    },
    causal: {
        group: 'explanatory',
        single: 'Explain how {a} came to be what it is.',
        pair: 'Explain how {a} came to be connected with {b}.',
    },
    outcome: {
        group: 'predictive',
        single: 'Given what is known about {a}, what is it likely to be remembered for?',
        pair: 'Given the relationship between {a} and {b}, what is likely to follow from it?',
    },
    hypothetical: {
        group: 'predictive',
        single: 'What would be different if {a} did not exist?',
        pair: 'How might things have turned out if {a} had not been connected with {b}?',
    },
    similarity: {
        group: 'comparative',
        single: 'Compare {a} with the entities most closely related to it.',
        pair: 'Compare {a} and {b}: what do they share and how do they differ?',
    },
    contrast: {
        group: 'comparative',
        single: 'How does {a} differ from the entities most closely related to it?',
        pair: 'What sets {a} apart from {b}?',
    },
    assessment: {
        group: 'critical',
        single: 'Critically assess the importance of {a}.',
        pair: 'Critically assess the relationship between {a} and {b}.',
    },
    limitations: {
        group: 'critical',
        single: 'What are the weaknesses or limitations of {a}?',
        pair: 'What are the weaknesses or limitations of the connection between {a} and {b}?',
    },
};

/** The five groups and their sub-types; a group named as a preset means its first sub-type. */
export const OPEN_GROUPS: Record<string, string[]> = {};
for (const [name, t] of Object.entries(OPEN_SUBTYPES)) (OPEN_GROUPS[t.group] ??= []).push(name);

/** Every `preset` value: a group (its first sub-type) or a sub-type. */
const OPEN_PRESETS: Record<string, { single: string; pair: string }> = {
    ...Object.fromEntries(Object.entries(OPEN_GROUPS).map(([g, [first]]) => [g, OPEN_SUBTYPES[first!]!])),
    ...OPEN_SUBTYPES,
};

interface OpenSettings {
    retrieval: Partial<RetrievalSettings>;
    kinds: PerturbationKind[];
    levels: number[];
    baseline: boolean;
    preset: string;
    unknownPreset?: string;
}

/** The settings an open probe reads, declared once (src/core/spec/settings.ts) and read through this table. */
const OPEN_SETTINGS = declareSettings('probe open', {
    preset: {
        type: 'text',
        values: Object.keys(OPEN_PRESETS),
        default: 'explanatory',
        doc: `The question asked when the probe has no ask: a group (${Object.keys(OPEN_GROUPS).join(', ')}; its first sub-type) or a sub-type (${Object.keys(OPEN_SUBTYPES).join(', ')}); default explanatory.`,
    },
    form: {
        type: 'text',
        values: ['triplets', 'paths', 'subgraph'],
        default: 'triplets',
        doc: "The retrieved context's form: triplets (default), paths or subgraph.",
    },
    k: {
        type: 'integer',
        min: 1,
        default: RETRIEVAL_DEFAULTS.k,
        doc: `Seed neighbourhood size for retrieval (default ${RETRIEVAL_DEFAULTS.k}).`,
    },
    triplets: {
        type: 'integer',
        min: 1,
        default: RETRIEVAL_DEFAULTS.triplets,
        doc: `Triplets kept in a triplets context (default ${RETRIEVAL_DEFAULTS.triplets}).`,
    },
    paths: {
        type: 'integer',
        min: 1,
        default: RETRIEVAL_DEFAULTS.paths,
        doc: `Paths kept in a paths context (default ${RETRIEVAL_DEFAULTS.paths}).`,
    },
    max_nodes: {
        type: 'integer',
        min: 1,
        default: RETRIEVAL_DEFAULTS.maxNodes,
        doc: `The most nodes of a subgraph context (default ${RETRIEVAL_DEFAULTS.maxNodes}).`,
    },
    perturb: {
        type: 'text',
        list: true,
        values: PERTURBATION_KINDS,
        default: ['rewire'],
        doc: `How the context is corrupted: ${PERTURBATION_KINDS.join(', ')} (default [rewire]).`,
    },
    levels: {
        type: 'number',
        list: true,
        above: 0,
        max: 1,
        default: [0.25, 0.5, 0.75, 1],
        doc: "Shares of the context's edges perturbed, each in (0, 1] (default [0.25, 0.5, 0.75, 1]).",
    },
    baseline: { type: 'boolean', default: true, doc: 'Also ask without any context (default true).' },
    prizes: {
        type: 'text',
        values: PRIZE_SOURCES,
        default: 'question',
        doc: "Node and edge prizes of retrieval: question (default; the question's similarity to them — by embeddings with `embeddings MODEL`, else BM25 — PageRank breaking ties) or ppr (PageRank alone).",
    },
    embeddings: {
        type: 'text',
        doc: "An embeddings model declared in the spec (OpenAI-compatible /v1/embeddings): the question's cosine similarity to each node and edge gives the prizes, and `replace` picks the least plausible relation by embeddings (ATS-style). Vectors are asked before the run generates and cached. Without it: BM25 and the type heuristic.",
    },
    judge_with: {
        type: 'text',
        doc: "A chat model declared in the spec that scores every answer after the run as OKGQA does (§5.1, G-Eval): Context Relevance, Comprehensiveness, Correctness and Empowerment, 1 to 5, one call per criterion with the rubric of docs/open.md (cached, priced with the run and counted by the cost gate). The report shows each criterion's mean and how often the judge (Correctness ≥ 4) agrees with the data check. Without it: the data check alone.",
    },
});

function openSettings(settings: Settings): OpenSettings {
    const s = OPEN_SETTINGS.read(settings);
    return {
        retrieval: {
            form: s.form,
            k: s.k,
            triplets: s.triplets,
            paths: s.paths,
            maxNodes: s.max_nodes,
            prizes: s.prizes === 'ppr' ? 'ppr' : 'question',
        },
        kinds: s.perturb as PerturbationKind[],
        levels: s.levels.filter(l => l > 0 && l <= 1),
        baseline: s.baseline,
        preset: s.preset,
        ...(s.$unfit.preset !== undefined ? { unknownPreset: String(s.$unfit.preset) } : {}),
    };
}

/** One data graph per loaded data (a spec's probes share it). */
const graphs = new WeakMap<LoadedData, DataGraph>();
function graphOf(spec: SpecModel, data: LoadedData): DataGraph {
    let g = graphs.get(data);
    if (!g) {
        g = buildDataGraph(spec, data);
        graphs.set(data, g);
    }
    return g;
}

/** "Titanic (1997)" for an entity keyed by title and year. */
function entityName(slot: TemplateSlot, row: number): string {
    const [first, ...rest] = keyValues(slot.relation, slot.table, row);
    return rest.length ? `${first} (${rest.join(', ')})` : (first ?? '');
}

const levelName = (kind: string, level: number) => `${kind}-${Math.round(level * 100)}`;

function phrasingsOf(probe: ProbeDecl): string[] {
    const s = openSettings(probe.settings);
    return [...(s.baseline ? ['none'] : []), 'clean', ...s.kinds.flatMap(k => s.levels.map(l => levelName(k, l)))];
}

function compileOpen({ spec, data, probe, problems, seed, aids }: CompileInput): Plan | undefined {
    const fail = (message: string, code = 'probe-data') => {
        problems.push({ location: probe.loc, severity: 'error', code, message });
        return undefined;
    };
    const a = slotFor(spec, data.tables, probe.relation ?? '');
    if (typeof a === 'string') return fail(a);
    const slots: TemplateSlot[] = [a];
    let join: FkJoin | undefined;
    if (probe.pair) {
        const b = slotFor(spec, data.tables, probe.pair);
        if (typeof b === 'string') return fail(b);
        const fk = spec.fks.find(f => f.from.relation === a.relation.name && f.to.relation === b.relation.name);
        if (!fk)
            return fail(
                `No fk leads from ${a.relation.name} to ${probe.pair}: declare \`fk ${a.relation.name}.<attribute> -> ${probe.pair}.<key>\` or drop \`with ${probe.pair}\`.`,
                'open-pair',
            );
        join = new FkJoin(a.table, fk.from.attributes, b.table, fk.to.attributes);
        slots.push(b);
    }
    const settings = openSettings(probe.settings);
    const preset = settings.unknownPreset === undefined ? OPEN_PRESETS[settings.preset] : undefined;
    if (!preset && probe.asks.length === 0)
        return fail(
            `Unknown preset '${settings.unknownPreset ?? settings.preset}': use a group (${Object.keys(OPEN_GROUPS).join(', ')}) or a sub-type (${Object.keys(OPEN_SUBTYPES).join(', ')}), or write an ask.`,
            'open-preset',
        );
    const scope = new Scope(
        slots,
        slots.map((_, slot) => ({ slot })),
    );
    slots.forEach((s, i) => {
        for (const k of keyAttributes(s.relation)) scope.need(i, k);
    });
    const text = probe.asks.map(x => x.text).join(' ');
    const template = text ? scope.template(text) : undefined;
    const graph = graphOf(spec, data);
    // Question-aware prizes and ATS-style plausibility from an embeddings model, read through the aids (the store's cache).
    const model = OPEN_SETTINGS.read(probe.settings).embeddings;
    const vectors = model ? (texts: readonly string[]) => aids?.embed(model, texts) : undefined;
    const prizes: Record<PrizesFrom, number> = { embeddings: 0, bm25: 0, ppr: 0 };
    /** Each asked entity's non-key attributes as facts, with the edge of the data graph that states each. */
    const claimFacts = (rows: Int32Array): FactRef[] =>
        slots.flatMap((sl, i) => {
            const keys = new Set(keyAttributes(sl.relation));
            const head = `${sl.relation.name}(${keyValues(sl.relation, sl.table, rows[i]!).join(', ')})`;
            return sl.relation.attributes
                .filter(at => !keys.has(at.name))
                .flatMap(at => {
                    const fk = spec.fks.find(
                        f =>
                            f.from.relation === sl.relation.name &&
                            f.from.attributes.length === 1 &&
                            f.from.attributes[0] === at.name,
                    );
                    const f = rowFact(scope, rows, i, at.name, 'claim');
                    if (!f) return [];
                    return [
                        {
                            ...f,
                            edge: edgeText(
                                fk
                                    ? { head, relation: fk.id, tail: `${fk.to.relation}(${f.value})` }
                                    : {
                                          head,
                                          relation: `${sl.relation.name}.${at.name}`,
                                          tail: `${sl.relation.name}.${at.name}=${f.value}`,
                                      },
                            ),
                        },
                    ];
                });
        });
    return {
        probe,
        scope,
        system: SYSTEM_OPEN,
        constraints: [a.relation.loc],
        summary: () =>
            model && prizes.bm25
                ? `prizes: embeddings (${model}) for ${prizes.embeddings} entities, BM25 for ${prizes.bm25} (their vectors are not in the store yet: a run asks ${model} for them)`
                : undefined,
        bind(row, rows) {
            rows[0] = row;
            if (join) {
                const t = join.target(row);
                if (t < 0) return 'dangling';
                rows[1] = t;
            }
            return scope.hasNull(rows) ? 'null' : undefined;
        },
        items(rows) {
            const question = template
                ? render(template.parsed, scope.lookup(rows))
                : (slots.length > 1 ? preset!.pair : preset!.single)
                      .replace('{a}', entityName(slots[0]!, rows[0]!))
                      .replace('{b}', slots[1] ? entityName(slots[1], rows[1]!) : '');
            const items = openItems(
                graph,
                slots.map((s, i) => graph.entityStart.get(s.relation.name)! + rows[i]!),
                question,
                text || settings.preset,
                settings,
                seed,
                n => aliasForms(spec, data, n),
                vectors,
            );
            const from = items[0]?.open?.retrieval.prizesFrom;
            if (from) prizes[from]++;
            // The facts a claim may state (docs/facts.md): the asked entities' own, each with the data edge a claim about it
            // is checked against; asked with no context and with the clean one (a perturbed context's are its own).
            const facts = claimFacts(rows);
            for (const item of items) {
                const c = item.open?.condition;
                if (c === 'none' || c === 'clean')
                    item.facts = facts.map(f => ({ ...f, passage: c === 'none' ? 'none' : 'given' }));
            }
            return items;
        },
        path: (_rows, item) => contextPath(item.open?.context ?? item.open?.clean),
    };
}

/** The spec's aliases of a node: of its value (`Movie.year=2009`), or of an entity's first key value. */
function aliasForms(spec: SpecModel, data: LoadedData, n: ContextNode): string[] {
    const [relation, attribute] = n.entity
        ? [n.type, keyAttributes(spec.relations.find(r => r.name === n.type)!)[0]!]
        : [n.type.slice(0, n.type.indexOf('.')), n.type.slice(n.type.indexOf('.') + 1)];
    return keywordForms(spec, data, relation, attribute, n.entity ? n.label.split(', ')[0]! : n.label).alternatives.map(
        a => a.text,
    );
}

/** Vectors of texts from an embeddings model, or undefined while any is missing. */
type Vectors = (texts: readonly string[]) => (readonly number[])[] | undefined;

/** The cosine of the first text's vector with each of the others'. */
function similarities(vectors: Vectors, first: string, others: readonly string[]): Float64Array | undefined {
    const v = vectors([first, ...others]);
    if (!v) return undefined;
    const out = new Float64Array(others.length);
    for (let i = 0; i < others.length; i++) out[i] = cosine(v[0]!, v[i + 1]!);
    return out;
}

/**
 * The items of one entity or pair: baseline, clean, then each perturbation kind at each level. With `vectors` (an
 * embeddings model) the prizes read the question by embeddings and replaced relations are the least plausible by
 * embeddings; until the prizes' vectors are at hand, BM25 and the type heuristic (and no triple is asked for).
 */
function openItems(
    graph: DataGraph,
    seeds: number[],
    question: string,
    template: string,
    settings: OpenSettings,
    seed: number,
    aliases: (n: ContextNode) => string[] = () => [],
    vectors?: Vectors,
): Item[] {
    const similarity: QuestionSimilarity | undefined = vectors && ((q, texts) => similarities(vectors, q, texts));
    const r = retrieve(graph, seeds, { ...settings.retrieval, question, ...(similarity ? { similarity } : {}) });
    const plausibility: TriplePlausibility | undefined =
        vectors && r.prizesFrom !== 'bm25' ? (edge, candidates) => similarities(vectors, edge, candidates) : undefined;
    const forms = Object.fromEntries(r.scored.nodes.map(n => [n.id, aliases(n)]).filter(([, a]) => a!.length > 0));
    const base = {
        form: r.context.form as RetrievalForm,
        retrieval: {
            seeds: r.seeds,
            neighbourhood: r.neighbourhood,
            pprIterations: r.pprIterations,
            graph: r.scored,
            prizesFrom: r.prizesFrom,
        },
        facts: factsAbout(
            graph,
            r.index,
            r.scored.nodes.filter(n => n.entity).map(n => n.id),
        ),
        relations: graph.relations.map(({ name, label, headType, tailType, words, many }) => ({
            name,
            label,
            headType,
            tailType,
            words,
            ...(many ? { many } : {}),
        })),
        aliases: forms,
    };
    const item = (phrasing: string, prompt: string, open: OpenQuestion): Item => ({
        phrasing,
        template,
        question: prompt,
        gold: 'yes',
        keywords: [],
        explain: '',
        group: { key: 'levels', relation: 'levels', role: phrasing },
        open,
    });
    const items: Item[] = [];
    if (settings.baseline)
        items.push(item('none', openPrompt(question), { ...base, condition: 'none', level: 0, clean: r.context }));
    items.push(item('clean', openPrompt(question, r.context), { ...base, condition: 'clean', level: 0, context: r.context }));
    const rowSeed = hashSeed(r.seeds.join('\n'), seed);
    for (const kind of settings.kinds) {
        for (const level of settings.levels) {
            const ctx = perturb(r.context, {
                kind,
                level,
                seed: rowSeed,
                relations: graph.relations,
                pool: r.scored,
                ...(plausibility ? { plausibility } : {}),
            });
            items.push(
                item(levelName(kind, level), openPrompt(question, ctx), {
                    ...base,
                    condition: kind,
                    level,
                    context: ctx,
                    clean: r.context,
                    similarity: { sc2d: sc2d(r.context, ctx), sd2: sd2(r.context, ctx) },
                }),
            );
        }
    }
    return items;
}

/** The context as a graph-panel path: perturbed edges say so in their label. */
function contextPath(ctx: ContextGraph | undefined): KgPath {
    if (!ctx) return { nodes: [], edges: [] };
    return {
        nodes: ctx.nodes.map(n => ({
            id: n.id,
            kind: n.entity ? 'entity' : 'value',
            relation: n.type.split('.')[0]!,
            label: n.label,
            hop: n.seed ? 0 : 1,
            given: true,
        })),
        edges: ctx.edges.map(e => ({
            from: e.head,
            to: e.tail,
            label: e.perturbed ? `${e.label} (${e.perturbed.kind})` : e.label,
            hop: 1,
        })),
    };
}

/** Claims of open answers: supported / contradicted by the data, followed a corrupted context edge, invented. */
interface OpenFigures {
    claims: number;
    answers: number;
    supported: Figure;
    contradicted: Figure;
    followedCorrupted: Figure;
    invented: Figure;
    /**
     * FActScore as the paper aggregates it (the shared reader's factScore): each answer's share of supported claims,
     * averaged over the answers that state a claim, with a 95 % interval over answers; `withoutClaims` answers left out.
     */
    factScore: { value: number | null; low: number; high: number; n: number; withoutClaims: number };
    /** Mean SC2D / SD2 similarity of the contexts given to the retrieved ones (perturbed questions only; null when none). */
    sc2d: number | null;
    sd2: number | null;
    /** The judge's G-Eval scores and its agreement with the data check (`judge_with`; absent without a judge). */
    judge?: JudgeFigures;
}

/** The open figures of a group (GroupMetrics' figure slot, key `open`). */
const openOf = (g: GroupMetrics) => figuresOf<OpenFigures>(g, 'open');

function openFigures(items: readonly { v: Verdict; q: Question }[]): OpenFigures {
    const perAnswer = items.map(({ v, q }) => openClaims(q, v.rationaleText, decidingClaims(v)));
    const all = perAnswer.flat();
    const n = all.length;
    const count = (f: (c: ClaimVerdict) => boolean) => figure(all.filter(f).length, n);
    const fact = factScore(perAnswer.map(cs => cs.map(c => c.data.label)));
    const out: OpenFigures = {
        claims: n,
        answers: items.length,
        factScore: { ...fact, value: fact.n ? fact.value : null },
        supported: count(c => c.data.label === 'supported'),
        contradicted: count(c => c.data.label === 'contradicted'),
        followedCorrupted: count(c => c.cause === 'followed-corrupted'),
        invented: count(c => c.cause === 'invented'),
        sc2d: null,
        sd2: null,
    };
    const judge = judgeFigures(items.map(({ v }) => v));
    if (judge) out.judge = judge;
    const similar = items.map(({ q }) => q.open?.similarity).filter((s): s is { sc2d: number; sd2: number } => !!s);
    if (similar.length) {
        out.sc2d = similar.reduce((a, s) => a + s.sc2d, 0) / similar.length;
        out.sd2 = similar.reduce((a, s) => a + s.sd2, 0) / similar.length;
    }
    return out;
}

/** The level of a condition's phrasing: clean 0, `rewire-50` 0.5; the baseline has none. */
function levelOf(phrasing: string): { kind: string; level: number } | undefined {
    if (phrasing === 'clean') return { kind: 'clean', level: 0 };
    const m = /^(\w+)-(\d+)$/.exec(phrasing);
    return m ? { kind: m[1]!, level: Number(m[2]) / 100 } : undefined;
}

/** Robustness curves per probe: a figure against the level, one line per model and perturbation kind (from clean). */
function curves(groups: readonly GroupMetrics[]): ReportCurve[] {
    const out: ReportCurve[] = [];
    for (const probe of [...new Set(groups.map(g => g.probe))]) {
        const mine = groups.filter(g => g.probe === probe);
        const kinds = [...new Set(mine.map(g => levelOf(g.phrasing)?.kind).filter((k): k is string => !!k && k !== 'clean'))];
        for (const [title, pickFigure] of [
            ['supported claims', (o: OpenFigures) => o.supported],
            ['claims that followed corrupted context', (o: OpenFigures) => o.followedCorrupted],
        ] as const) {
            const series = [...new Set(mine.map(g => g.model))].flatMap(model =>
                kinds.map(kind => ({
                    name: `${model} · ${kind}`,
                    points: mine
                        .filter(g => g.model === model && ['clean', kind].includes(levelOf(g.phrasing)?.kind ?? ''))
                        .map(g => {
                            const f = pickFigure(openOf(g)!);
                            return { x: levelOf(g.phrasing)!.level, y: f.value ?? 0, ci: f.ci };
                        }),
                })),
            );
            if (series.some(s => s.points.length > 1))
                out.push({ title: `${probe}: ${title} by perturbation level`, x: 'share of edges perturbed', y: title, series });
        }
    }
    return out;
}

function reportSections(groups: readonly GroupMetrics[]): ReportSection[] {
    // No context, clean, then the perturbed levels as the metrics list them (the spec's kinds and levels in its own
    // order, like every other table); the sort is stable, so that order stands.
    const rank = (p: string) => (p === 'none' ? 0 : levelOf(p)?.kind === 'clean' ? 1 : 2);
    const order = (a: GroupMetrics, b: GroupMetrics) =>
        a.probe.localeCompare(b.probe) || a.model.localeCompare(b.model) || rank(a.phrasing) - rank(b.phrasing);
    const all = groups.filter(g => openOf(g) && g.mode === 'all').sort(order);
    const rows = all.map(g => {
        const o = openOf(g)!;
        const f = (x: typeof o.supported) => `${pct(x.value)} ${ciText(x.ci)}`;
        const sim = o.sd2 === null ? '' : `${o.sc2d!.toFixed(2)} / ${o.sd2.toFixed(2)}`;
        const fs = o.factScore
            ? o.factScore.value === null
                ? 'n/a'
                : `${pct(o.factScore.value)} [${pct(o.factScore.low)}, ${pct(o.factScore.high)}] over ${o.factScore.n}`
            : 'n/a';
        return [
            ...keyCells(g),
            sim,
            String(o.answers),
            String(o.claims),
            fs,
            f(o.supported),
            f(o.contradicted),
            f(o.followedCorrupted),
            f(o.invented),
        ];
    });
    return rows.length
        ? [
              {
                  title: 'Open answers: atomic claims by context, the phrasing column (none = no context, clean = as retrieved, kind-N = N % of the edges perturbed)',
                  columns: [
                      ...LABEL_PARTS,
                      'SC2D / SD2',
                      'answers',
                      'claims',
                      'FActScore (per answer)',
                      'supported',
                      'contradicted',
                      'followed corrupted context',
                      'invented',
                  ],
                  rows,
                  curves: curves(all),
              },
              ...judgeSection(all),
          ]
        : [];
}

/** The judge's G-Eval scores per model × probe × context, and how often its verdict agrees with the data check. */
function judgeSection(groups: readonly GroupMetrics[]): ReportSection[] {
    const judged = groups.filter(g => openOf(g)?.judge);
    const rows = judged.map(g => {
        const j = openOf(g)!.judge!;
        const mean = (c: (typeof GEVAL_CRITERIA)[number]) => {
            const m = j.criteria[c];
            return m.mean === null ? 'n/a' : `${m.mean.toFixed(2)} ${ciText(m.ci)}`;
        };
        return [
            ...keyCells(g),
            j.model,
            String(openOf(g)!.answers),
            ...GEVAL_CRITERIA.map(mean),
            String(j.unparsed + j.failed),
            `${pct(j.agreement.value)} ${ciText(j.agreement.ci)} over ${j.agreement.n}`,
        ];
    });
    return rows.length
        ? [
              {
                  title: `Open answers: OKGQA's G-Eval criteria by the judge (mean 1–5, 95 % interval); agreement: Correctness ≥ ${JUDGE_CORRECT_FROM} vs the data check`,
                  columns: [
                      ...LABEL_PARTS,
                      'judge',
                      'answers',
                      ...GEVAL_CRITERIA.map(c => GEVAL_RUBRIC[c].name),
                      'unparsed',
                      'agreement with the data check',
                  ],
                  rows,
              },
          ]
        : [];
}

/**
 * An open question asked with no context, its clean context and that context perturbed at increasing levels:
 * robust when no answer states a claim that only a corrupted context edge supports.
 */
const levelsRelation: GroupRelation = {
    name: 'levels',
    title: 'an open question with its context clean and perturbed: no answer follows a corrupted context edge',
    outcomes: ['robust', 'followed-corrupted', 'undecided'],
    judge(members) {
        const claims = members.map(m => ({ m, claims: openClaims(m.q, m.v.rationaleText, decidingClaims(m.v)) }));
        if (claims.every(c => c.claims.length === 0))
            return { outcome: 'undecided', ok: null, detail: 'no answer states a claim' };
        const followed = claims.filter(c => c.claims.some(x => x.cause === 'followed-corrupted'));
        if (followed.length)
            return { outcome: 'followed-corrupted', ok: false, detail: followed.map(c => c.m.q.phrasing).join(', ') };
        return { outcome: 'robust', ok: true };
    },
};

/** The panel's view of an open answer: each atomic claim with its label against the data and the context. */
function openGraph(graph: QuestionGraph, q: Question, v: Verdict | undefined, response: string | undefined): QuestionGraph {
    if (!q.open || response === undefined) return graph;
    graph.claims = openClaims(q, response, decidingClaims(v)).map(c => {
        const m: ClaimMark = { text: c.text, data: c.data.label, context: c.context.label, cause: c.cause, mentions: c.mentions };
        if (c.span) m.span = c.span;
        if (c.context.edge) m.contextEdge = { head: c.context.edge.head, tail: c.context.edge.tail };
        if (c.data.edge) m.dataEdge = { head: c.data.edge.head, relation: c.data.edge.relation, tail: c.data.edge.tail };
        return m;
    });
    return graph;
}

/**
 * Abstention (issue 41, Build 6): an answer that declines somewhere ("I can't give a reliable answer") and states
 * nothing of its own the data can judge about what was asked — only the given facts' words set against (a correction
 * of the context is no answer), hedged claims, advice on what to check, remarks the data holds nothing about, side facts
 * that do not join the question's entities ("I won't state the relationship. The film came out in 2013.") without
 * even a hedged guess at what was asked — has not answered: unsure, as a declining yes / no answer is. The given
 * facts' words it follows are its own.
 */
function declinesWhole(q: Question, response: string): boolean {
    const asked = new Set(q.open?.retrieval.seeds ?? []);
    const judged = openClaims(q, response).filter(
        c => !c.described && !(c.reported && c.negated) && c.data.label !== 'unverifiable',
    );
    const own = judged.filter(ownClaim);
    if (own.some(c => bearsOn(c, asked))) return false;
    // Side facts only: an answer still, when it guesses at what was asked ("I'm not sure, but it may have been X").
    return own.length === 0 || !judged.some(c => c.hedged && bearsOn(c, asked));
}

/**
 * Does the claim bear on what was asked: the fact that supports or contradicts it joins the question's entities (both
 * ends among them; with one entity asked, it touches it)? A claim judged by no single fact is taken to bear on it.
 */
function bearsOn(c: ClaimVerdict, asked: ReadonlySet<string>): boolean {
    const e = c.data.edge;
    if (!e || asked.size === 0) return true;
    const ends = [e.head, e.tail].filter(x => asked.has(x)).length;
    return ends >= Math.min(2, asked.size);
}

/**
 * The answer's own claims, which its verdict counts: not hedged ("it may have starred X"), and not the given facts'
 * words it only describes ("The list says X directed Y", reader/denial.ts `describedSpans`): that is the prompt's claim.
 */
const ownClaim = (c: ClaimVerdict) => !c.hedged && !c.described;

/** A data edge in words: `head —relation→ tail`. */
const edgeText = (e: { head: string; relation: string; tail: string }) => `${e.head} —${e.relation}→ ${e.tail}`;

/** Why an open answer failed: each claim the data contradicts, with its span and the edge; or that none is supported. */
function explainOpen(q: Question, v: Verdict, response: string): string[] {
    const claims = openClaims(q, response, decidingClaims(v));
    const at = (c: { span?: [number, number] }) => (c.span ? ` at ${c.span[0]}–${c.span[1]}` : '');
    const out = claims
        .filter(c => c.data.label === 'contradicted')
        .map(
            c =>
                `claim "${c.text}"${at(c)} contradicted${c.data.edge ? ` by the data's ${edgeText(c.data.edge)}` : ''}${c.cause === 'followed-corrupted' ? ' (it followed a corrupted context edge)' : ''}`,
        );
    if (!claims.some(c => c.data.label === 'supported')) {
        const unverifiable = claims.filter(c => c.data.label === 'unverifiable').length;
        out.push(
            claims.length === 0
                ? 'no claim read in the answer'
                : `no claim supported by the data (${claims.length} read, ${unverifiable} unverifiable)`,
        );
    }
    return out;
}

export const openFamily: ProbeFamily = {
    core: {
        kind: 'open',
        title: "open-ended questions answered with context retrieved from the data's graph (clean and perturbed), scored claim by claim",
        docs: 'probes.md#open-probes',
        target: 'relation',
        example: "write 'about <relation>' (and 'with <relation>' for FK-linked pairs)",
        members: ['ask'],
        readAs: 'claims',
        settings: OPEN_SETTINGS.decls,
        compile: compileOpen,
        phrasings: phrasingsOf,
        pathPerItem: true,
        // Abstention (reader/abstain.ts): an answer that declines or only hedges, committing to no claim, is unsure (M);
        // so is one that declines and commits to nothing the data can judge (`declinesWhole`).
        parse: (response, q) => {
            const r = readClaimsAnswer(response);
            if (r.label === 'yes' && r.declines && declinesWhole(q, response))
                return {
                    answer: 'unsure',
                    rationaleStart: 0,
                    why: 'declines, and states nothing of its own the data can judge about what was asked',
                    stance: 'abstain',
                    span: r.declines,
                };
            return { answer: r.label, rationaleStart: 0, why: r.why, stance: r.stance, ...(r.span ? { span: r.span } : {}) };
        },
        score: (q, parsed, response) => {
            if (parsed.answer !== 'yes') return { correct: false };
            const claims = openClaims(q, response, parsed.claims);
            // An answer passes when it states something the data supports and nothing the data contradicts; a hedged claim
            // ("it may have starred X") is hedged, not invented: it passes and fails nothing.
            const s = summariseClaims(claims.filter(ownClaim));
            // Each claim as read (JSONL carries them): its words, span, polarity, status against the data and cause.
            return {
                correct: s.supported > 0 && s.contradicted === 0,
                claims: claims.map(c => ({
                    status: c.data.label,
                    text: c.text,
                    ...(c.span ? { span: c.span } : {}),
                    ...(c.negated ? { negated: true } : {}),
                    ...(c.hedged ? { hedged: true } : {}),
                    ...(c.described ? { described: true } : {}),
                    cause: c.cause,
                    ...(c.data.edge ? { edge: edgeText(c.data.edge) } : {}),
                })),
            };
        },
        measured: true,
        decidesKnowledge: false,
        groupRelations: [levelsRelation],
    },
    modelSteps: {
        generationModels: probe => {
            const model = OPEN_SETTINGS.read(probe.settings).embeddings;
            return model !== undefined ? [model] : [];
        },
        // OKGQA's G-Eval judge (`judge_with`): after verification, one call per criterion per answer; the cost gate counts them.
        afterVerification: run =>
            judgeOpenAnswers(run, name => {
                const p = run.spec.probes.find(x => x.name === name);
                return p ? OPEN_SETTINGS.read(p.settings).judge_with : undefined;
            }),
        answerSteps: probe => {
            const model = OPEN_SETTINGS.read(probe.settings).judge_with;
            return model === undefined
                ? undefined
                : (q, answer) => gevalCalls(q, answer).map(c => ({ model, messages: c.messages }));
        },
    },
    figures: {
        extras: items => ({ figures: { open: openFigures(items) } }),
        // FActScore per answer (its share of supported claims; none where it states no claim): compare pairs it by bootstrap.
        questionFigures: [
            {
                name: 'factscore',
                higherIsBetter: true,
                outcome: (q, v) => {
                    const claims = openClaims(q, v.rationaleText, decidingClaims(v));
                    return claims.length ? claims.filter(c => c.data.label === 'supported').length / claims.length : null;
                },
            },
        ],
    },
    graph: { questionGraph: openGraph },
    report: { sections: reportSections, explainFailure: explainOpen },
    simulator: {
        rates: [
            { name: 'follows', default: 1, doc: "Open answers: the share of the context's facts the simulated model states." },
            {
                name: 'invents',
                default: 0.05,
                doc: 'Open answers: per fact stated, the chance the simulated model adds an invented one.',
            },
        ],
        answerText: (q, _gold, rates) => {
            const ctx = q.open?.context ?? q.open?.clean;
            if (!ctx) return 'I have no facts to state about this.';
            const text = simulatedOpenAnswer(ctx, {
                follows: rates?.follows ?? 1,
                invents: rates?.invents ?? 0,
                seed: hashSeed(q.id, rates?.seed ?? 0),
                pool: q.open!.retrieval.graph,
            });
            return text || 'I have no facts to state about this.';
        },
        guess: () => 'yes',
    },
};
