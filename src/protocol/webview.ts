/**
 * The messages between the extension host and the HalluProbe webviews (preview table, graph panel, Compare Models,
 * Review Answers).
 * Imported by both sides; types plus two small runtime guards, because a message from a webview is
 * untrusted input to the host. Data only travels here, never interpolated into HTML.
 *
 * Handshake: the webview posts `ready` once its script runs; the host answers with `init` (and later
 * pushes `update` as the spec or the selection changes). Requests carry a `requestId` that the host's
 * `response` echoes, so the webview can await them.
 */
import type { KgPath } from '../core/kg/path.js';
import type { KeywordStatus } from '../core/verify/types.js';
import type { FactRef } from '../core/probes/question.js';

/** The engine's keyword status, re-exported so that webviews import the protocol only. */
export type { KeywordStatus };

export const PROTOCOL_VERSION = 1;

// ── preview ────────────────────────────────────────────────────────────────────────────────────────

export interface PreviewRow {
    id: string;
    probe: string;
    kind: string;
    phrasing: string;
    question: string;
    gold: string;
    /** One list of keyword values per hop. */
    keywords: string[][];
    /** The first source row: file (absolute), 1-based line and a short label such as `movies.csv:12`. */
    source?: { file: string; line: number; label: string };
    /** Input tokens of the exact messages. */
    tokens: number;
}

export interface ModelCostForecast {
    model: string;
    questions: number;
    inputTokens: number;
    outputTokens: number;
    /** In US dollars; null when the model has no price. */
    cost: number | null;
    /** The cost as the engine writes money (`$0.0042`, `no price`): what the panel shows. */
    costText: string;
}

export interface PreviewData {
    title: string;
    spec: string;
    rows: PreviewRow[];
    forecasts: ModelCostForecast[];
    /** Why rows were left out (nulls, FD violations), in words. */
    notes: string[];
}

// ── graph ──────────────────────────────────────────────────────────────────────────────────────────

interface SchemaRelation {
    name: string;
    label?: string;
    attributes: string[];
    keys: string[][];
    fds: { id: string; lhs: string[]; rhs: string[] }[];
    rows?: number;
}

interface SchemaFk {
    id: string;
    from: string;
    to: string;
    fromAttributes: string[];
    toAttributes: string[];
}

export interface SchemaGraph {
    spec: string;
    relations: SchemaRelation[];
    fks: SchemaFk[];
}

/** Where a keyword of the rationale was found (or which other value contradicted it), for highlighting. */
export interface RationaleSpan {
    start: number;
    end: number;
    status: KeywordStatus;
    keyword: string;
}

interface HopStatus {
    hop: number;
    status: KeywordStatus;
    keywords: { value: string; status: KeywordStatus; conflict?: string }[];
}

/** An open answer's atomic claim (core/open): its labels against the data and the context, and the edges behind them. */
export interface ClaimMark {
    text: string;
    data: 'supported' | 'contradicted' | 'unverifiable';
    context: 'supported' | 'contradicted' | 'unverifiable';
    cause: 'grounded' | 'followed-corrupted' | 'invented' | 'unverifiable';
    /** The node ids it mentions, subject first. */
    mentions: string[];
    /** [start, end) of the claim in the response, when the reader cut it from there. */
    span?: [number, number];
    /** The context edge it rests on, and the data's fact that supports or contradicts it. */
    contextEdge?: { head: string; tail: string };
    dataEdge?: { head: string; relation: string; tail: string };
}

export interface QuestionGraph {
    questionId: string;
    question: string;
    model: string;
    gold: string;
    answer: string;
    correct: boolean;
    path: KgPath;
    /** Per hop (1-based); empty before the question was run. */
    hops: HopStatus[];
    failedHop?: number;
    rationale: { text: string; spans: RationaleSpan[] };
    /** What the reader read as the answer: the span of the response, why, and who read it (the model reader when it decided). */
    read?: { span: [number, number]; text: string; why: string; by: string };
    /** Why the verdict failed, in the family's words (which claim, which edge, which premise); empty when it passed. */
    explanation?: string[];
    /** open questions: the answer's claims (the path is the context given). */
    claims?: ClaimMark[];
    /** The question's own entities (node ids), when the family names them; else the path's start (kg/drawing focusOf). */
    focus?: string[];
}

/** A drawn node: its id, label and what it is (`more`: the "+N more" node standing for collapsed neighbours). */
export interface NodeDef {
    group: 'nodes';
    data: {
        id: string;
        label: string;
        kind: string;
        status?: KeywordStatus | 'none';
        relation?: string;
        hop?: number;
        given?: boolean;
        focus?: boolean;
        questionId?: string;
    };
    classes?: string;
}
export interface EdgeDef {
    group: 'edges';
    data: { id: string; source: string; target: string; label: string; status?: KeywordStatus | 'none'; hop?: number };
    classes?: string;
}
export type ElementDef = NodeDef | EdgeDef;

/**
 * A graph as the panel draws it (core/kg/drawing): the elements it opens with, what each "+N more" node adds
 * when expanded (its neighbours, their edges, their own "+N more" nodes), the question's own entities (centred
 * and marked), and a compact drawing for a panel too narrow to show this one whole with readable labels (which may
 * have a compact drawing of its own, smaller again).
 */
export interface DrawnGraph {
    elements: ElementDef[];
    more: Record<string, ElementDef[]>;
    focus: string[];
    compact?: DrawnGraph;
}

/**
 * One fact, every family (docs/facts.md): the graph panel's fact view (core/report/fact-view.ts makes it from the run's
 * per-fact step): the fact's edge in the middle, each family's answer around it, each opening its question's graph.
 */
export interface FactGraph extends Pick<FactRef, 'id' | 'label' | 'relation' | 'key' | 'attribute' | 'value'> {
    model: string;
    /** The fact's class for this model and what it means ("fragile: right in some families, wrong or abstaining in others"). */
    class: string;
    classText: string;
    /** Each family that asked it: its verdict, the value its answers gave, and the question whose graph it opens. */
    answers: FactAnswer[];
}

interface FactAnswer {
    kind: string;
    verdict: 'right' | 'wrong' | 'abstained';
    value?: string;
    /** "statement · wrong: Steven Spielberg (3 answers)", as the panel lists it. */
    text: string;
    /** A question of this family testing the fact (a failed one when the family was wrong), whose graph a click opens. */
    questionId: string;
}

export type GraphView =
    | { view: 'schema'; schema: SchemaGraph; drawn: DrawnGraph }
    | { view: 'question'; graph: QuestionGraph; drawn: DrawnGraph; schema?: SchemaGraph }
    | { view: 'fact'; fact: FactGraph; drawn: DrawnGraph };

// ── messages ───────────────────────────────────────────────────────────────────────────────────────

/** Requests a webview may make, with their parameters and results. */
export interface WebviewRequests {
    /** Graph: the neighbourhood of a node, read from the data. */
    expand: { params: { nodeId: string; relation?: string; label: string }; result: DrawnGraph };
    /** Graph: save an export the webview rendered (PNG as a data URL, SVG as text). */
    save: { params: { format: 'png' | 'svg'; data: string }; result: { saved: string | null } };
}
export type RequestMethod = keyof WebviewRequests;

export type WebviewRequest = {
    [M in RequestMethod]: { type: 'request'; requestId: number; method: M; params: WebviewRequests[M]['params'] };
}[RequestMethod];

/**
 * The Compare Models panel's data (core/report/paired-render.ts `compareGrid` makes it): the engine's paired
 * matrices as texts, so the panel lays out what the engine wrote and recomputes nothing (the numbers read as in
 * md / html / csv).
 */
export interface CompareGridCell {
    text: string;
    /** Which side the adjusted test favours: the column's cell (b), the row's (a), or neither. */
    winner: 'column' | 'row' | null;
    /** The difference, interval, N, p-values and method in words (the cell's tooltip and the head of its flips). */
    detail: string;
    /** The flipped questions each way, with a title naming the side. */
    flips: { title: string; questions: string[] }[];
}
export interface CompareGridMatrix {
    title: string;
    cells: string[];
    rows: (CompareGridCell | null)[][];
}
export interface CompareGrid {
    title: string;
    method: string;
    matrices: CompareGridMatrix[];
}

/**
 * The Review Answers panel's data (core/report/review-view.ts `reviewView` makes it from the engine's review round,
 * the one `halluprobe review` steps through): every text and figure is the engine's; the panel lays them out, takes a
 * key and sends it back as a `review` message.
 */
export type ReviewActionName = 'agree' | 'pass' | 'fail' | 'unsure' | 'unreadable' | 'skip' | 'undo' | `claim-${number}`;
const REVIEW_ACTIONS: readonly ReviewActionName[] = ['agree', 'pass', 'fail', 'unsure', 'unreadable', 'skip', 'undo'];
/** A claim key's action: mark claim 1–9 of an open answer with its next status. */
const isReviewAction = (a: unknown): a is ReviewActionName =>
    (REVIEW_ACTIONS as readonly unknown[]).includes(a) || (typeof a === 'string' && /^claim-[1-9]$/.test(a));

export interface ReviewItemView {
    /** Names the answer (question, model, sample): a label is taken only for the answer the panel showed. */
    slot: string;
    /** "3 of 12 · binary": the place in the review and the family. */
    header: string;
    /** "movie_binary · basic · simulator #0". */
    where: string;
    question: string;
    gold: string;
    /** The data row(s) the question was built from, with where they are. */
    rows: { label: string; file: string; line: number }[];
    /** The model's response, and the span(s) the reader read in it ([start, end) offsets). */
    answer: { text: string; spans: { start: number; end: number; title: string }[] };
    /**
     * The reader's verdict (its class, as a label would say it), the answer's stratum (family · class · how it was read),
     * what it read and why the verdict is what it is: what the panel keeps hidden until the answer is labelled.
     */
    reader: { verdict: string; stratum: string; read: string; explanation: string[] };
    /**
     * An open answer's claims as the data check read them (the first nine): the digit that marks each, its words, and
     * the reviewer's mark so far ("supported", "contradicted", "unverifiable" or "unmarked"); stored with the label.
     */
    claims?: { key: string; text: string; mark: string; action: ReviewActionName }[];
}

export interface ReviewView {
    title: string;
    run: string;
    reviewer: string;
    /** "3 of 12 to label · 2 labelled now, 7 by you in all". */
    progress: string;
    /** The reader's running agreement with this reviewer's labels, as the terminal review says it. */
    agreement: { text: string; k: number; n: number; value: number | null; ci: [number, number] | null };
    keys: { key: string; name: string; action: ReviewActionName }[];
    /** The answer to label now; absent when the review is over. */
    item?: ReviewItemView;
    /** What the last key did ("Labelled fail; the reader read it as pass: they disagree."). */
    last?: string;
    /** The closing line when nothing is left to label. */
    end?: string;
}

/** Webview → host. */
export type WebviewToHost =
    | { type: 'ready'; version: number }
    | { type: 'openSource'; file: string; line: number }
    | { type: 'openQuestion'; questionId: string; model?: string }
    | { type: 'log'; level: 'info' | 'error'; message: string }
    /** Review Answers: a key pressed on the answer `slot` (undo needs none). */
    | { type: 'review'; action: ReviewActionName; slot?: string }
    | WebviewRequest;

/** Host → webview. */
export type HostToWebview =
    | { type: 'init'; panel: 'preview'; data: PreviewData }
    | { type: 'init'; panel: 'graph'; data: GraphView }
    | { type: 'init'; panel: 'compare'; data: CompareGrid }
    | { type: 'init'; panel: 'review'; data: ReviewView }
    | { type: 'update'; panel: 'preview'; data: PreviewData }
    | { type: 'update'; panel: 'graph'; data: GraphView }
    | { type: 'update'; panel: 'compare'; data: CompareGrid }
    | { type: 'update'; panel: 'review'; data: ReviewView }
    | { type: 'busy'; message: string }
    | { type: 'error'; message: string }
    | { type: 'response'; requestId: number; ok: true; result: unknown }
    | { type: 'response'; requestId: number; ok: false; error: string };

/** The HalluProbe webviews, by the name of their script (dist/webview/<name>.js) and stylesheet. */
export type PanelName = 'preview' | 'graph' | 'compare' | 'review';
const PANELS: readonly PanelName[] = ['preview', 'graph', 'compare', 'review'];

export type ResultOf<M extends RequestMethod> = WebviewRequests[M]['result'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Validates a message from a webview; anything else is dropped by the host. */
export function isWebviewToHost(msg: unknown): msg is WebviewToHost {
    if (!isObject(msg)) return false;
    switch (msg.type) {
        case 'ready':
            return isInt(msg.version);
        case 'openSource':
            return isString(msg.file) && isInt(msg.line) && msg.line >= 1;
        case 'openQuestion':
            return isString(msg.questionId) && (msg.model === undefined || isString(msg.model));
        case 'log':
            return (msg.level === 'info' || msg.level === 'error') && isString(msg.message);
        case 'review':
            return isReviewAction(msg.action) && (msg.slot === undefined || isString(msg.slot));
        case 'request': {
            if (!isInt(msg.requestId) || !isObject(msg.params)) return false;
            const p = msg.params;
            if (msg.method === 'expand')
                return isString(p.nodeId) && isString(p.label) && (p.relation === undefined || isString(p.relation));
            if (msg.method === 'save') return (p.format === 'png' || p.format === 'svg') && isString(p.data);
            return false;
        }
        default:
            return false;
    }
}

/** Validates a message from the host (the webview trusts its host, but a malformed one must not crash it). */
export function isHostToWebview(msg: unknown): msg is HostToWebview {
    if (!isObject(msg)) return false;
    switch (msg.type) {
        case 'init':
        case 'update':
            return PANELS.includes(msg.panel as PanelName) && isObject(msg.data);
        case 'busy':
        case 'error':
            return isString(msg.message);
        case 'response':
            return isInt(msg.requestId) && typeof msg.ok === 'boolean';
        default:
            return false;
    }
}

/** Client side of the request/response pairing; `post` sends, `settle` is fed every `response` message. */
export class RequestTracker {
    private next = 1;
    private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

    constructor(private readonly post: (msg: WebviewToHost) => void) {}

    request<M extends RequestMethod>(method: M, params: WebviewRequests[M]['params']): Promise<ResultOf<M>> {
        const requestId = this.next++;
        return new Promise<ResultOf<M>>((resolve, reject) => {
            this.pending.set(requestId, { resolve: v => resolve(v as ResultOf<M>), reject });
            this.post({ type: 'request', requestId, method, params } as WebviewRequest);
        });
    }

    /** Returns true when the message answered a pending request. */
    settle(msg: HostToWebview): boolean {
        if (msg.type !== 'response') return false;
        const p = this.pending.get(msg.requestId);
        if (!p) return false;
        this.pending.delete(msg.requestId);
        if (msg.ok) p.resolve(msg.result);
        else p.reject(new Error(msg.error));
        return true;
    }

    get size(): number {
        return this.pending.size;
    }
}
