/**
 * Question generation: compiles the selected probes against the data and streams their questions row by
 * row (nothing is accumulated, so a million rows cost no more memory than the data itself). Deterministic:
 * same spec + data + seed → same questions in the same order with the same ids.
 */
import type { ProbeDecl, SampleDecl, SpecLocation, SpecModel, SuiteDecl } from '../spec/model.js';
import type { LoadedData } from '../data/types.js';
import type { SpecDiagnostic } from '../spec/load.js';
import type { Question, RowRef } from './question.js';
import { format, type TemplateValue } from '../spec/template.js';
import { coreOf, familyKinds, findCore } from './registry.js';
import { groupId, idOf, idPrefix, idSuffix } from './ids.js';
import { messagesFor, variantOf, ZERO_SHOT, type Demo, type Variant } from './prompts.js';
import { hashSeed, rowOrder } from './sampling.js';
import { keyAttributes, keyValues } from './scope.js';
import { keyOccurrences } from './rows.js';
import type { Item, Plan, SkipReason } from './plan.js';
import type { Problem } from '../errors.js';
import type { ModelAids } from './contract/core.js';
import { PROBE_SETTINGS, SUITE_SETTINGS } from './settings.js';
import { ANSWER_SETTINGS } from './answers.js';

export interface GenerateOptions {
    suite?: string;
    probe?: string;
    limit?: number;
    seed?: number;
    /** Model outputs the plans read while generating (run/aids.ts: from the store's cache). */
    aids?: ModelAids;
}

export interface ProbeStats {
    /** Rows looked at (sampling stops early once it has enough eligible rows). */
    rows: number;
    generated: number;
    skippedNull: number;
    skippedViolating: number;
    /** FK value with no referenced row (path probes). */
    skippedDangling: number;
    /** The FK join came back to an entity already on the path. */
    skippedCycle: number;
    /** A condition or predicate could not be evaluated (e.g. arithmetic on text). */
    skippedInvalid: number;
    /** Rule probes: the entity has no derived fact of the rule. */
    skippedUnderived?: number;
    /** The family's own account of the generation (Plan.summary), once the probe's rows are done. */
    notes?: string[];
}

export interface GenerationStats extends ProbeStats {
    byProbe: Record<string, ProbeStats>;
    /** True when `limit` stopped generation with rows or items still to go. */
    limited?: boolean;
}

export interface Generation {
    /** Streams the questions; consume once. */
    questions: IterableIterator<Question>;
    /** Filled while `questions` is consumed; final once it is exhausted. */
    stats: GenerationStats;
    /** Why a selected probe, suite or variant gives no questions (unknown names, bad templates, …). */
    diagnostics: SpecDiagnostic[];
}

const emptyStats = (): ProbeStats => ({
    rows: 0,
    generated: 0,
    skippedNull: 0,
    skippedViolating: 0,
    skippedDangling: 0,
    skippedCycle: 0,
    skippedInvalid: 0,
});

type SkipField = 'skippedNull' | 'skippedViolating' | 'skippedDangling' | 'skippedCycle' | 'skippedInvalid' | 'skippedUnderived';

const SKIP_FIELD: Record<SkipReason, SkipField> = {
    null: 'skippedNull',
    violating: 'skippedViolating',
    dangling: 'skippedDangling',
    cycle: 'skippedCycle',
    invalid: 'skippedInvalid',
    underived: 'skippedUnderived',
};

export function toDiagnostic(p: Problem): SpecDiagnostic {
    const range = p.location?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return {
        file: p.location?.file ?? '',
        range,
        severity: p.severity,
        code: p.code,
        message: p.remedy ? `${p.message} ${p.remedy}` : p.message,
    };
}

/** A family's plan with the kind of the family that compiled it. */
export type KindedPlan = Plan & { readonly kind: string };

/** Compiles one probe; problems (including its templates') go to `problems`. Undefined when it cannot generate. */
export function compileProbe(
    spec: SpecModel,
    data: LoadedData,
    probe: ProbeDecl,
    problems: Problem[],
    seed = 0,
    aids?: ModelAids,
    editor = false,
): KindedPlan | undefined {
    const family = findCore(probe.kind);
    if (!family) {
        problems.push({
            location: probe.loc,
            severity: 'error',
            code: 'probe-kind',
            message: `Unknown probe kind '${probe.kind}': use one of ${familyKinds().join(', ')}.`,
        });
        return undefined;
    }
    const compiled = family.compile({
        spec,
        data,
        probe,
        problems,
        seed,
        ...(aids ? { aids } : {}),
        ...(editor ? { editor } : {}),
    });
    if (!compiled) return undefined;
    // The kind comes from the family that compiled it, never from the plan: it cannot disagree.
    const plan: KindedPlan = Object.assign(compiled, { kind: family.kind });
    problems.push(...plan.scope.problems(text => templateLoc(probe, text)));
    return plan.scope.failed ? undefined : plan;
}

/** The location of the phrasing / stem / option / ask whose text this is, else the probe. */
function templateLoc(probe: ProbeDecl, text: string): SpecLocation {
    const all = [...probe.phrasings, ...probe.stems, ...probe.options, ...probe.asks];
    return all.find(m => m.text === text || text.includes(m.text))?.loc ?? probe.loc;
}

function specLoc(spec: SpecModel): SpecLocation {
    return { file: spec.files[0] ?? '', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
}

interface Selected {
    plan: KindedPlan;
    count: number;
    variants: Variant[];
    /** Paired asking: only items testing one of these facts (docs/facts.md). */
    facts?: ReadonlySet<string>;
}

/**
 * Generates the questions of a suite (its probes, sample, quotas and variants), of one probe, or of every
 * probe. `limit` caps the total; `seed` overrides the suite's seed (without a suite: random order).
 */
export function generateQuestions(spec: SpecModel, data: LoadedData, options: GenerateOptions = {}): Generation {
    const stats: GenerationStats = { ...emptyStats(), byProbe: {} };
    const problems: Problem[] = [];
    let suite: SuiteDecl | undefined;
    if (options.suite !== undefined) {
        suite = spec.suites.find(s => s.name === options.suite);
        if (!suite)
            problems.push({
                location: specLoc(spec),
                severity: 'error',
                code: 'unknown-suite',
                message: `No suite named ${options.suite}; the spec declares: ${spec.suites.map(s => s.name).join(', ') || 'none'}.`,
            });
    }
    const sample: SampleDecl = suite ? { ...suite.sample } : options.seed !== undefined ? { mode: 'random' } : { mode: 'all' };
    if (options.seed !== undefined) sample.seed = options.seed;
    // The suite's `seed K` setting seeds choice falsification and demonstrations when sampling has none.
    const suiteSettings = SUITE_SETTINGS.read(suite?.settings);
    const seed = sample.seed ?? suiteSettings.seed ?? 0;
    let names = options.probe !== undefined ? [options.probe] : suite ? suite.probes : spec.probes.map(p => p.name);
    if (options.suite !== undefined && !suite) names = [];
    const variants: Variant[] = [];
    for (const decl of suite?.variants ?? []) {
        const v = variantOf(decl);
        if (!('id' in v)) problems.push({ location: decl.loc, severity: 'error', code: v.code, message: v.message });
        else variants.push(v);
    }
    if (variants.length === 0) variants.push(ZERO_SHOT);
    const selected: Selected[] = [];
    for (const name of names) {
        const probe = spec.probes.find(p => p.name === name);
        if (!probe) {
            problems.push({
                location: suite?.loc ?? specLoc(spec),
                severity: 'error',
                code: 'unknown-probe',
                message: `No probe named ${name}; the spec declares: ${spec.probes.map(p => p.name).join(', ') || 'none'}.`,
            });
            continue;
        }
        const plan = compileProbe(spec, data, probe, problems, seed, options.aids);
        if (!plan) continue;
        stats.byProbe[name] = emptyStats();
        // A knowledge probe asks what a model knows, as the paper does: zero-shot, whatever variants the suite compares.
        const usable = coreOf(plan.kind).decidesKnowledge
            ? [ZERO_SHOT]
            : variants.filter(v => {
                  if (!v.passage || plan.scope.resolve(v.passage.attribute, v.passage.relation)) return true;
                  problems.push({
                      location: probe.loc,
                      severity: 'warning',
                      code: 'variant-not-applicable',
                      message: `${v.id} does not apply to ${probe.name}: ${v.passage.relation} is not one of its relations.`,
                  });
                  return false;
              });
        for (const v of usable) {
            const r = v.passage && plan.scope.resolve(v.passage.attribute, v.passage.relation);
            if (r) plan.scope.need(r.slot, r.attribute.name);
        }
        const quota = suite?.quotas[name] ?? (sample.mode === 'all' ? undefined : sample.count);
        // A probe's own `limit N` caps its rows whatever the suite samples; else the suite's `limit N` does.
        const own = PROBE_SETTINGS.read(probe.settings).limit ?? suiteSettings.limit ?? Number.POSITIVE_INFINITY;
        selected.push({ plan, count: Math.min(quota ?? Number.POSITIVE_INFINITY, own), variants: usable });
    }
    // Paired asking (`facts N`): every probe asks about the same drawn facts, so each row is looked at (no row sample).
    if (suiteSettings.facts !== undefined) {
        // Drawn over plans of their own: a plan's account of its generation (Plan.summary) counts the asked rows only.
        const drawing = selected.flatMap(sel => compileProbe(spec, data, sel.plan.probe, [], seed, options.aids) ?? []);
        const facts = drawFacts(drawing, suiteSettings.facts, seed);
        for (const sel of selected) {
            sel.facts = facts;
            sel.count = Math.min(
                suite?.quotas[sel.plan.probe.name] ?? Number.POSITIVE_INFINITY,
                PROBE_SETTINGS.read(sel.plan.probe.settings).limit ?? Number.POSITIVE_INFINITY,
            );
        }
        return {
            questions: stream(selected, { mode: 'all' }, seed, options.limit ?? Number.POSITIVE_INFINITY, stats),
            stats,
            diagnostics: problems.map(toDiagnostic),
        };
    }
    return {
        questions: stream(selected, sample, seed, options.limit ?? Number.POSITIVE_INFINITY, stats),
        stats,
        diagnostics: problems.map(toDiagnostic),
    };
}

/**
 * The facts a `facts N` suite asks about: among the facts two or more of its probes test (on any of their rows), N in a
 * seeded order of their ids — the same draw whatever order the probes or rows come in.
 */
function drawFacts(plans: readonly KindedPlan[], n: number, seed: number): Set<string> {
    const probesOf = new Map<string, Set<string>>();
    for (const plan of plans) {
        const rows = new Int32Array(plan.scope.slots.length);
        const table = plan.scope.slots[0]!.table;
        for (let row = 0; row < table.rowCount; row++) {
            if (plan.bind(row, rows)) continue;
            const items = plan.items(rows);
            if (items === 'invalid') continue;
            for (const item of items)
                for (const f of item.facts ?? []) {
                    const probes = probesOf.get(f.id);
                    if (probes) probes.add(plan.probe.name);
                    else probesOf.set(f.id, new Set([plan.probe.name]));
                }
        }
    }
    const paired = [...probesOf].filter(([, probes]) => probes.size >= 2).map(([id]) => ({ id, order: hashSeed(id, seed) }));
    paired.sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : 1));
    return new Set(paired.slice(0, n).map(p => p.id));
}

function* stream(
    selected: Selected[],
    sample: SampleDecl,
    seed: number,
    limit: number,
    stats: GenerationStats,
): Generator<Question> {
    let total = 0;
    for (const { plan, count, variants, facts } of selected) {
        const st = stats.byProbe[plan.probe.name]!;
        const perItem = coreOf(plan.kind).pathPerItem;
        const start = plan.scope.slots[0]!;
        const rows = new Int32Array(plan.scope.slots.length);
        const pools = new Map<string, DemoPool>();
        const pseudo = { mode: sample.mode, seed: hashSeed(plan.probe.name, seed) };
        const occurrences = keyOccurrences(start.table, keyAttributes(start.relation));
        // `answer_rule paper` (offered by the closed families: probes/answers.ts ANSWER_SETTINGS), read once per probe.
        const paperRule = ANSWER_SETTINGS.read(plan.probe.settings).answer_rule === 'paper';
        const ids = new IdTexts(plan.probe.name, plan.kind);
        let taken = 0;
        for (const row of rowOrder(start.table.rowCount, pseudo)) {
            if (total >= limit) {
                stats.limited = true;
                break;
            }
            if (taken >= count) break;
            st.rows++;
            stats.rows++;
            const reason = plan.bind(row, rows);
            const all = reason ? reason : plan.items(rows);
            if (typeof all === 'string') {
                const k = SKIP_FIELD[all];
                st[k] = (st[k] ?? 0) + 1;
                stats[k] = (stats[k] ?? 0) + 1;
                continue;
            }
            const items = facts ? all.filter(i => i.facts?.some(f => facts.has(f.id))) : all;
            if (items.length === 0) continue;
            taken++;
            const key = keyValues(start.relation, start.table, row);
            // A repeated key (the data violates it, or the relation declares none) gets its occurrence number.
            const occurrence = occurrences?.[row] ?? 0;
            const idKey = occurrence ? [...key, `#${occurrence + 1}`] : key;
            let rowPath: Question['path'] | undefined;
            const slotRows: RowRef[] = [];
            // The first slot's row is named by the key just read (rowRef would read it again).
            for (let i = 0; i < plan.scope.slots.length; i++)
                slotRows.push(plan.scope.rowRef(rows, i, i === 0 ? key : undefined));
            const source = {
                spec: plan.probe.loc.file,
                probe: plan.probe.loc,
                constraints: plan.constraints,
                rows: slotRows,
            };
            for (const variant of variants) {
                let demos: Demo[] = [];
                if (variant.n > 0 && plan.demos) demos = plan.demos.slice(0, variant.n);
                else if (variant.n > 0) {
                    let pool = pools.get(variant.id);
                    if (!pool) {
                        pool = demoPool(plan, variant, seed);
                        pools.set(variant.id, pool);
                    }
                    demos = pickDemos(pool, variant.n, row);
                }
                let passage: string | undefined;
                if (variant.passage) {
                    const r = plan.scope.resolve(variant.passage.attribute, variant.passage.relation)!;
                    passage = format(plan.scope.slots[r.slot]!.table.value(rows[r.slot]!, r.attribute.name) as TemplateValue);
                }
                // The row's items share their groups: a group id is hashed once per row and variant (most rows have
                // one group, so the last one is kept rather than a map per row).
                const groups: GroupCache = { key: undefined, id: '' };
                for (const item of items) {
                    if (total >= limit) {
                        stats.limited = true;
                        return;
                    }
                    total++;
                    st.generated++;
                    stats.generated++;
                    // Most families' graph depends on the row only; choice's also on the item (which option is false).
                    const path = perItem || !rowPath ? plan.path(rows, item) : rowPath;
                    if (!perItem) rowPath = path;
                    yield assemble(
                        plan,
                        item,
                        variant,
                        key,
                        idOf(ids.prefix(item.template), idKey, ids.suffix(variant.id, item.phrasing)),
                        idKey,
                        path,
                        source,
                        messagesFor(item.system ?? plan.system, item.question, variant, demos, passage),
                        groups,
                        paperRule,
                    );
                }
            }
        }
        const note = plan.summary?.();
        if (note) st.notes = note.split('\n');
    }
}

interface GroupCache {
    key: string | undefined;
    id: string;
}

/** A probe's question ids' text before the key (per template) and after it (per variant and phrasing), joined once. */
class IdTexts {
    private readonly prefixes = new Map<string, string>();
    private readonly suffixes = new Map<string, Map<string, string>>();

    constructor(
        private readonly probe: string,
        private readonly kind: string,
    ) {}

    prefix(template: string): string {
        let p = this.prefixes.get(template);
        if (p === undefined) this.prefixes.set(template, (p = idPrefix(this.probe, this.kind, template)));
        return p;
    }

    suffix(variant: string, phrasing: string): string {
        let byPhrasing = this.suffixes.get(variant);
        if (!byPhrasing) this.suffixes.set(variant, (byPhrasing = new Map()));
        let s = byPhrasing.get(phrasing);
        if (s === undefined) byPhrasing.set(phrasing, (s = idSuffix(variant, phrasing)));
        return s;
    }
}

/** The Item fields that assemble places itself; every other field of an item is the family's own data, copied as given. */
const PLACED = new Set(['phrasing', 'template', 'question', 'gold', 'keywords', 'options', 'explain', 'falsified', 'group']);

function assemble(
    plan: KindedPlan,
    item: Item,
    variant: Variant,
    key: string[],
    id: string,
    /** The key as ids name the row: with its occurrence number when the key repeats. */
    idKey: string[],
    path: Question['path'],
    source: Question['source'],
    messages: Question['messages'],
    groups: GroupCache,
    paperRule: boolean,
): Question {
    const q: Question = {
        id,
        probe: plan.probe.name,
        kind: plan.kind,
        phrasing: item.phrasing,
        variant: variant.kind,
        variantId: variant.id,
        question: item.question,
        messages,
        gold: item.gold,
        keywords: item.keywords,
        entity: { relation: plan.scope.slots[0]!.relation.name, key },
        source,
        path,
    };
    if (item.options) q.options = item.options;
    if (paperRule) q.answerRule = 'paper';
    // The family's own data (QuestionData: open's context, rule's proof, …), every key as the plan gave it, in its order.
    // for…in, not Object.keys: the same keys in the same order (an item is a plain object, and Object.prototype has no
    // enumerable key), without an array of them per question; a placed key is skipped before its value is read.
    for (const k in item) {
        if (PLACED.has(k)) continue;
        const v = (item as unknown as Record<string, unknown>)[k];
        if (v !== undefined) (q as unknown as Record<string, unknown>)[k] = v;
    }
    if (item.group) {
        if (groups.key !== item.group.key) {
            groups.key = item.group.key;
            groups.id = groupId(plan.probe.name, idKey, variant.id, item.group.key);
        }
        q.group = { id: groups.id, relation: item.group.relation, role: item.group.role };
    }
    return q;
}

interface DemoPool {
    yes: (Demo & { row: number })[];
    no: (Demo & { row: number })[];
    other: (Demo & { row: number })[];
}

/**
 * Demonstrations come from other rows, drawn once per probe and variant in a seeded order (so every
 * question of a probe shares the same prefix, which providers can cache). One spare of each kind lets a
 * question drop a demonstration built from its own row.
 */
function demoPool(plan: Plan, variant: Variant, seed: number): DemoPool {
    const pool: DemoPool = { yes: [], no: [], other: [] };
    const want = variant.n + 1;
    const rows = new Int32Array(plan.scope.slots.length);
    const table = plan.scope.slots[0]!.table;
    let scanned = 0;
    for (const row of rowOrder(table.rowCount, {
        mode: 'random',
        seed: hashSeed(`${plan.probe.name}\u0000${variant.id}`, seed),
    })) {
        if (++scanned > 20000 || (pool.yes.length >= want && pool.no.length >= want && pool.other.length >= want)) break;
        if (plan.bind(row, rows)) continue;
        const items = plan.items(rows);
        if (items === 'invalid') continue;
        const yes = items.find(i => i.gold === 'yes');
        const no = items.find(i => i.gold === 'no');
        const demo = (i: Item) => ({ question: i.question, gold: i.gold, explain: i.explain, row });
        // One demonstration per row, alternating so that yes and no come from different entities.
        if (yes && (pool.yes.length <= pool.no.length || !no) && pool.yes.length < want) pool.yes.push(demo(yes));
        else if (no && pool.no.length < want) pool.no.push(demo(no));
        if (items[0] && pool.other.length < want) pool.other.push(demo(items[0]));
    }
    return pool;
}

/** n demonstrations, none from `row`: balanced yes / no when the probe has both, else the first ones. */
function pickDemos(pool: DemoPool, n: number, row: number): Demo[] {
    const yes = pool.yes.filter(d => d.row !== row);
    const no = pool.no.filter(d => d.row !== row);
    if (yes.length === 0 || no.length === 0) return pool.other.filter(d => d.row !== row).slice(0, n);
    const out: Demo[] = [];
    for (let i = 0; out.length < n && (i < yes.length || i < no.length); i++) {
        if (i < yes.length) out.push(yes[i]!);
        if (out.length < n && i < no.length) out.push(no[i]!);
    }
    return out;
}
