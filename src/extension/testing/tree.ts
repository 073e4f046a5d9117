/**
 * The Test Explorer tree as plain data, built by pure functions (the controller only mirrors it into
 * vscode.TestItems): spec file → suite → probe → phrasing → questions. Questions are produced lazily, when a
 * phrasing is expanded or run, from the engine's generator.
 */
import type { SpecModel, ProbeDecl, Range } from '../../core/spec/index.js';
import { goldText, type Question } from '../../core/probes/index.js';
import { findCore } from '../../core/probes/index.js';

type TreeKind = 'spec' | 'suite' | 'probe' | 'phrasing' | 'question';

export interface TreeNode {
    /** Unique in the controller, and stable across rebuilds so that results stay attached. */
    id: string;
    kind: TreeKind;
    label: string;
    /** Where the node is declared (question: its probe's line). */
    file?: string;
    range?: Range;
    description?: string;
    /** Phrasings: their questions are created on demand. */
    lazy?: boolean;
    children: TreeNode[];
    /** Ids of the spec, suite, probe and phrasing above (a question's run needs them). */
    suite?: string;
    probe?: string;
    phrasing?: string;
}

const SEP = '\u241f';

export function nodeId(...parts: string[]): string {
    return parts.join(SEP);
}

export function parseNodeId(id: string): string[] {
    return id.split(SEP);
}

/** The phrasings a probe's questions are grouped by, as its family names them (none for an unknown kind). */
function phrasingNames(probe: ProbeDecl): string[] {
    return findCore(probe.kind)?.phrasings(probe) ?? [];
}

/** spec → suites → probes → phrasings. Probes in no suite appear under a pseudo-suite "(no suite)". */
export function buildSpecTree(specFile: string, spec: SpecModel, label: string): TreeNode {
    const root: TreeNode = { id: nodeId(specFile), kind: 'spec', label, file: specFile, children: [] };
    const probeByName = new Map(spec.probes.map(p => [p.name, p]));
    const inSuite = new Set<string>();
    const suites = spec.suites.map(s => ({ name: s.name, probes: s.probes, loc: s.loc, models: s.models }));
    for (const s of suites) for (const p of s.probes) inSuite.add(p);
    const loose = spec.probes.filter(p => !inSuite.has(p.name)).map(p => p.name);
    if (loose.length > 0) suites.push({ name: '(no suite)', probes: loose, loc: undefined as never, models: [] });
    for (const s of suites) {
        const suiteId = nodeId(specFile, s.name);
        const suite: TreeNode = {
            id: suiteId,
            kind: 'suite',
            label: s.name,
            suite: s.name,
            children: [],
            ...(s.loc ? { file: s.loc.file, range: s.loc.range } : {}),
            ...(s.models.length ? { description: s.models.join(', ') } : {}),
        };
        for (const name of s.probes) {
            const p = probeByName.get(name);
            if (!p) continue;
            const probeId = nodeId(suiteId, p.name);
            const probe: TreeNode = {
                id: probeId,
                kind: 'probe',
                label: p.name,
                description: p.kind + ((p.fd ?? p.rule) ? ` · ${p.fd ?? p.rule}` : ''),
                file: p.loc.file,
                range: p.loc.range,
                suite: s.name,
                probe: p.name,
                children: [],
            };
            for (const ph of phrasingNames(p)) {
                const decl = p.phrasings.find(d => d.name === ph);
                const loc = decl?.loc ?? p.loc;
                probe.children.push({
                    id: nodeId(probeId, ph),
                    kind: 'phrasing',
                    label: ph,
                    file: loc.file,
                    range: loc.range,
                    lazy: true,
                    suite: s.name,
                    probe: p.name,
                    phrasing: ph,
                    children: [],
                });
            }
            suite.children.push(probe);
        }
        root.children.push(suite);
    }
    return root;
}

/**
 * A question's label: the key values of the entity it asks about, then its phrasing (and variant, when not the
 * plain one) — "Avatar (2009) · basic" — so the questions of one template differ at their start. A question
 * without key values keeps its text.
 */
function questionLabel(q: Question): string {
    const [first, ...rest] = q.entity.key.filter(v => v !== '');
    const cut = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
    if (first === undefined) return cut(q.question, 120);
    const entity = cut(`${first}${rest.length ? ` (${rest.join(', ')})` : ''}`, 80);
    return [entity, q.phrasing, ...(q.variant && q.variant !== 'zero_shot' ? [q.variant] : [])].join(' · ');
}

/** The question leaves of one phrasing node, labelled by their entity's key values, located at the probe's line. */
export function questionNodes(phrasing: TreeNode, questions: Iterable<Question>, limit = 10_000): TreeNode[] {
    const out: TreeNode[] = [];
    for (const q of questions) {
        if (q.probe !== phrasing.probe || q.phrasing !== phrasing.phrasing) continue;
        const label = questionLabel(q);
        out.push({
            id: nodeId(phrasing.id, q.id),
            kind: 'question',
            label,
            description: `gold ${goldText(q)}`,
            file: q.source.probe.file,
            range: q.source.probe.range,
            suite: phrasing.suite,
            probe: q.probe,
            phrasing: q.phrasing,
            children: [],
        });
        if (out.length >= limit) break;
    }
    return out;
}

/** The question id of a question node (its last id part). */
export function questionIdOf(node: TreeNode): string | undefined {
    return node.kind === 'question' ? parseNodeId(node.id).at(-1) : undefined;
}

/** Walks a tree depth-first. */
export function* walk(node: TreeNode): Generator<TreeNode> {
    yield node;
    for (const c of node.children) yield* walk(c);
}

/** One engine run of a Test Explorer request: a whole suite (its own sampling) or explicit questions. */
export interface RunUnit {
    suite?: string;
    scopes: TreeNode[];
    explicit: boolean;
}

const NO_SUITE = '(no suite)';

/**
 * What to run for a selection in one spec: the spec means each of its suites; a suite runs as declared
 * (sampled); probes, phrasings and questions run exactly the questions below them.
 */
export function planRuns(spec: TreeNode, selected: readonly TreeNode[]): RunUnit[] {
    const units: RunUnit[] = [];
    const explicit: TreeNode[] = [];
    const wanted = selected.some(n => n.kind === 'spec') ? spec.children.filter(s => s.suite !== NO_SUITE) : selected;
    for (const n of wanted) {
        if (n.kind === 'suite' && n.suite !== NO_SUITE) units.push({ suite: n.suite, scopes: [n], explicit: false });
        else if (n.kind !== 'spec') explicit.push(n);
    }
    if (explicit.length > 0) units.push({ scopes: explicit, explicit: true });
    return units;
}

/** Whether a question (probe, phrasing, id) lies below a node. */
export function covers(n: TreeNode, probe: string, phrasing: string, id: string): boolean {
    switch (n.kind) {
        case 'spec':
            return true;
        case 'suite':
            return n.children.some(p => p.probe === probe);
        case 'probe':
            return n.probe === probe;
        case 'phrasing':
            return n.probe === probe && n.phrasing === phrasing;
        case 'question':
            return questionIdOf(n) === id;
    }
}
