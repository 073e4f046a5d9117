/**
 * The graph panel: cytoscape with the dagre layout draws what the engine computed (core/kg/drawing): the schema
 * view (relations, FKs, FDs) or a question's view (the KG path coloured by hop verdict, conflicting values as their
 * own nodes, the question's own entities marked, large neighbourhoods behind "+N more" nodes), the rationale beside
 * it with keyword spans highlighted. It opens fitted to the panel with labels at least 11 px high. Every label
 * reaches the DOM through textContent or cytoscape's canvas; a list of the nodes makes the graph keyboard-reachable
 * (Enter expands a node from the data, or a "+N more" node into what it stands for).
 */
import cytoscape from 'cytoscape';
import dagre from 'cytoscape-dagre';
import type { DrawnGraph, EdgeDef, ElementDef, FactGraph, GraphView, QuestionGraph } from '../../src/protocol/webview.js';
import { connect, el, post, requests, status } from '../shared/host.js';
import {
    better,
    boxesHit,
    labelEnd,
    labelPlaces,
    claimSummary,
    hopSummary,
    overlaps,
    rationaleSegments,
    rankDirection,
    readableZoom,
    SMALLEST_FONT_PX,
    toSvg,
    verdictLine,
    type LabelPlace,
    type LayoutScore,
} from './model.js';

cytoscape.use(dagre);

let cy: cytoscape.Core | undefined;
/** What each "+N more" node adds when expanded, and the edges waiting for their other end to be drawn. */
let more: DrawnGraph['more'] = {};
const pending = new Map<string, EdgeDef>();
let focus: string[] = [];
/** The fact view's model: its answers open their questions' graphs for that model. */
let factModel: string | undefined;

/** VS Code theme colours, resolved from its CSS variables (cytoscape needs concrete values). */
function theme() {
    const css = getComputedStyle(document.documentElement);
    const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
    return {
        fg: v('--vscode-editor-foreground', '#cccccc'),
        bg: v('--vscode-editor-background', '#1e1e1e'),
        node: v('--vscode-editorWidget-background', '#252526'),
        border: v('--vscode-editorWidget-border', '#454545'),
        found: v('--vscode-testing-iconPassed', '#73c991'),
        missing: v('--vscode-editorWarning-foreground', '#cca700'),
        contradicted: v('--vscode-testing-iconFailed', '#f14c4c'),
        focus: v('--vscode-focusBorder', '#007fd4'),
        font: v('--vscode-font-family', 'sans-serif'),
    };
}

/** How far from its end an edge label at one end sits (set per edge by the layout, from the label's size). */
const offset = (e: cytoscape.EdgeSingular) => Number(e.data('offset') ?? 20);
/** How far off its line a label was moved to clear another label or a node (set by separate()). */
const shift = (e: cytoscape.EdgeSingular) => Number(e.data('shiftPx') ?? 0);

function style(): cytoscape.StylesheetJson {
    const t = theme();
    return [
        {
            selector: 'node',
            style: {
                label: 'data(label)',
                color: t.fg,
                'background-color': t.node,
                'border-color': t.border,
                'border-width': 2,
                shape: 'round-rectangle',
                'text-wrap': 'wrap',
                'text-max-width': '110px',
                'text-valign': 'center',
                'text-halign': 'center',
                width: 'label',
                height: 'label',
                padding: '6px',
                'font-family': t.font,
                'font-size': 12,
            },
        },
        { selector: 'node.hidden', style: { 'border-style': 'dashed' } },
        { selector: 'node.value', style: { shape: 'barrel' } },
        { selector: 'node.status-found', style: { 'border-color': t.found } },
        { selector: 'node.status-missing', style: { 'border-color': t.missing } },
        { selector: 'node.status-contradicted', style: { 'border-color': t.contradicted } },
        { selector: 'node.conflict', style: { 'background-color': t.contradicted, color: t.bg } },
        { selector: 'node.focus', style: { 'border-color': t.focus, 'border-width': 4, 'font-weight': 'bold' } },
        { selector: 'node.more', style: { 'border-style': 'dashed', 'font-style': 'italic', shape: 'round-rectangle' } },
        { selector: 'node:selected', style: { 'border-color': t.focus, 'border-width': 4 } },
        {
            selector: 'edge',
            style: {
                label: 'data(label)',
                color: t.fg,
                'line-color': t.border,
                'target-arrow-color': t.border,
                'target-arrow-shape': 'triangle',
                'curve-style': 'bezier',
                width: 2,
                'font-size': SMALLEST_FONT_PX,
                'text-wrap': 'wrap',
                'text-max-width': '100px',
                'text-background-color': t.bg,
                'text-background-opacity': 1,
                'text-margin-y': shift,
            },
        },
        // Where edges fan in, a label sits by its source; where they fan out, by its target: apart from its siblings'.
        {
            selector: 'edge.at-source',
            style: {
                label: '',
                'source-label': 'data(label)',
                'source-text-offset': offset,
                'source-text-margin-y': shift,
                'text-wrap': 'wrap',
                'text-max-width': '100px',
            },
        },
        {
            selector: 'edge.at-target',
            style: {
                label: '',
                'target-label': 'data(label)',
                'target-text-offset': offset,
                'target-text-margin-y': shift,
                'text-wrap': 'wrap',
                'text-max-width': '100px',
            },
        },
        { selector: 'edge.status-found', style: { 'line-color': t.found, 'target-arrow-color': t.found } },
        {
            selector: 'edge.status-missing',
            style: { 'line-color': t.missing, 'target-arrow-color': t.missing, 'line-style': 'dashed' },
        },
        { selector: 'edge.status-contradicted', style: { 'line-color': t.contradicted, 'target-arrow-color': t.contradicted } },
        { selector: 'edge.expanded', style: { 'line-style': 'dotted' } },
    ];
}

function toolbar(): HTMLElement {
    const bar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Graph actions' });
    const button = (label: string, action: () => void) => {
        const b = el('button', { type: 'button' }, label);
        b.addEventListener('click', action);
        bar.append(b);
        return b;
    };
    button('Fit', () => {
        cy?.fit(undefined, PAD);
        publish();
    });
    button('Readable', () => frame());
    button('Export PNG', () => void save('png'));
    button('Export SVG', () => void save('svg'));
    bar.append(legend());
    return bar;
}

/** What the colours and line styles mean (issue 36 item 6): each entry drawn with the style it explains (media/graph.css). */
function legend(): HTMLElement {
    const list = el('ul', { class: 'legend', id: 'legend', 'aria-label': 'Legend' });
    const entries: [string, string][] = [
        ['line found', 'found in the answer'],
        ['line missing', 'missing from the answer'],
        ['line contradicted', 'contradicted by the answer'],
        ['line expanded', 'added from the data'],
        ['box focus', 'the question’s own entity'],
        ['box hidden', 'for the model to supply'],
        ['box conflict', 'what the model said instead'],
    ];
    for (const [swatch, text] of entries) {
        const li = el('li');
        li.append(el('span', { class: `swatch ${swatch}`, 'aria-hidden': 'true' }), document.createTextNode(text));
        list.append(li);
    }
    return list;
}

async function save(format: 'png' | 'svg'): Promise<void> {
    if (!cy) return;
    const t = theme();
    const data =
        format === 'png'
            ? cy.png({ full: true, scale: 2, bg: t.bg, output: 'base64uri' })
            : toSvg(
                  cy.nodes().map(n => ({
                      id: n.id(),
                      label: String(n.data('label')),
                      x: n.position('x'),
                      y: n.position('y'),
                      w: n.width(),
                      h: n.height(),
                      colour: String(n.style('background-color')),
                      border: String(n.style('border-color')),
                  })),
                  cy.edges().map(e => ({
                      source: e.source().id(),
                      target: e.target().id(),
                      label: String(e.data('label') ?? ''),
                      colour: String(e.style('line-color')),
                  })),
                  t.bg,
                  t.fg,
              );
    const result = await requests.request('save', { format, data });
    note(result.saved ? `Saved ${result.saved}` : 'Export cancelled');
}

function note(text: string): void {
    const n = document.getElementById('note');
    if (n) n.textContent = text;
}

/** The keyboard way into the graph: one button per node; Enter or click selects and expands it. */
function nodeList(): HTMLElement {
    const list = el('ul', { class: 'nodes', id: 'nodes', 'aria-label': 'Nodes' });
    for (const n of cy?.nodes() ?? []) {
        const kind = String(n.data('kind')),
            nodeStatus = String(n.data('status') ?? 'none'),
            isFocus = n.hasClass('focus');
        const li = el('li', {
            'data-node': n.id(),
            'data-kind': kind,
            'data-status': nodeStatus,
            ...(isFocus ? { 'data-focus': 'true' } : {}),
        });
        const title =
            kind === 'more'
                ? 'Show what this stands for'
                : kind === 'answer'
                  ? 'Open this question\u2019s graph'
                  : isFocus
                    ? 'The question’s own entity; press to expand from the data'
                    : 'Select; press again to expand from the data';
        const b = el(
            'button',
            { type: 'button', class: `node status-${nodeStatus}${isFocus ? ' focus' : ''}`, title },
            String(n.data('label')).split('\n')[0]!,
        );
        b.addEventListener('click', () => void expand(n.id()));
        li.append(b);
        list.append(li);
    }
    return list;
}

/** Adds elements not drawn yet; an edge whose other end is not drawn waits until it is. */
function add(elements: readonly ElementDef[]): string[] {
    if (!cy) return [];
    const added: string[] = [];
    for (const e of elements) {
        if (e.group === 'edges') {
            if (cy.getElementById(e.data.id).empty()) pending.set(e.data.id, e);
            continue;
        }
        if (!cy.getElementById(e.data.id).empty()) continue;
        cy.add(e as cytoscape.ElementDefinition);
        added.push(e.data.id);
    }
    for (const [id, e] of pending) {
        if (cy.getElementById(e.data.source).empty() || cy.getElementById(e.data.target).empty()) continue;
        pending.delete(id);
        if (cy.getElementById(id).empty()) cy.add(e as cytoscape.ElementDefinition);
    }
    return added;
}

/** After elements were added: laid out again, framed on what was added, the node list redrawn. */
function grown(added: string[]): void {
    layout(added);
    document.getElementById('nodes')?.replaceWith(nodeList());
}

async function expand(id: string): Promise<void> {
    if (!cy) return;
    const node = cy.getElementById(id);
    if (node.empty()) return;
    // The fact view: a family's answer opens its question's own graph.
    const questionId = node.data('questionId') as string | undefined;
    if (questionId) {
        post({ type: 'openQuestion', questionId, ...(factModel ? { model: factModel } : {}) });
        return;
    }
    if (node.data('kind') === 'more') {
        const group = more[id] ?? [];
        delete more[id];
        cy.remove(node);
        grown(add(group));
        return;
    }
    cy.elements().unselect();
    node.select();
    cy.animate({ center: { eles: node } }, { duration: 150 });
    if (node.data('kind') === 'relation' || node.data('kind') === 'conflict') return;
    try {
        const n = await requests.request('expand', {
            nodeId: id,
            label: String(node.data('label')),
            ...(node.data('relation') ? { relation: String(node.data('relation')) } : {}),
        });
        Object.assign(more, n.more);
        const added = add(n.elements);
        if (added.length === 0) {
            note(`Nothing more around ${String(node.data('label'))} in the data.`);
            return;
        }
        grown(added);
    } catch (err) {
        note(err instanceof Error ? err.message : String(err));
    }
}

/** An open answer's claims; a click selects (and expands from the data) the entity the claim is about. */
function claimList(g: QuestionGraph): HTMLElement {
    const list = el('ol', { class: 'claims', id: 'claims', 'aria-label': 'Claims of the answer' });
    for (const c of g.claims ?? []) {
        const status = c.data === 'supported' ? 'found' : c.data === 'contradicted' ? 'contradicted' : 'missing';
        const b = el(
            'button',
            {
                type: 'button',
                class: `node status-${status}`,
                'data-cause': c.cause,
                title: `data: ${c.data} · context: ${c.context}`,
            },
            claimSummary(c),
        );
        const subject = c.mentions[0];
        if (subject) b.addEventListener('click', () => void expand(subject));
        const li = el('li');
        li.append(b);
        list.append(li);
    }
    return list;
}

/**
 * The question's summary — the question, the verdict, the hops and why it failed — which a narrow panel shows above
 * the drawing (issue 36 item 6: the Why list in view without scrolling); the rationale and claims follow the drawing.
 */
function rationale(g: QuestionGraph): [HTMLElement, HTMLElement] {
    const aside = el('aside', { class: 'rationale summary', id: 'rationale', 'aria-label': 'The question and its verdict' });
    aside.append(el('h2', {}, 'Question'), el('p', { class: 'question', title: g.question }, g.question));
    const verdict = verdictLine(g);
    aside.append(el('p', { class: `verdict ${verdict.tone}`, id: 'verdict' }, verdict.text));
    aside.append(el('p', { class: 'hops', id: 'hops' }, hopSummary(g)));
    // Why it failed, in the family's own words (which claim, which edge, which premise), as the engine explains it.
    if (g.explanation?.length) {
        const why = el('ul', { class: 'why', id: 'why', 'aria-label': 'Why it failed' });
        for (const line of g.explanation) why.append(el('li', {}, line));
        aside.append(el('h2', {}, 'Why'), why);
    }
    const text = el('p', { class: 'text', id: 'rationale-text' });
    for (const s of rationaleSegments(g.rationale.text, g.rationale.spans)) {
        text.append(
            s.status
                ? el('mark', { class: `kw ${s.status}`, title: `${s.status}: ${s.keyword ?? ''}` }, s.text)
                : document.createTextNode(s.text),
        );
    }
    const answer = el('section', { class: 'answer', id: 'answer', 'aria-label': 'The model’s answer' });
    answer.append(el('h2', {}, 'Rationale'), text);
    if (g.claims?.length) answer.append(el('h2', {}, 'Claims'), claimList(g));
    return [aside, answer];
}

/**
 * The fact view's summary (docs/facts.md): the fact, its class for the model, and each family's answer as the engine
 * wrote it, each a button opening that question's graph.
 */
function factSummary(f: FactGraph): HTMLElement {
    const aside = el('aside', { class: 'rationale summary', id: 'rationale', 'aria-label': 'The fact and its families' });
    aside.append(el('h2', {}, 'Fact'), el('p', { class: 'question', title: f.label }, `${f.label} = ${f.value}`));
    aside.append(
        el(
            'p',
            { class: `verdict ${f.class === 'knows' ? 'correct' : 'wrong'}`, id: 'verdict' },
            `${f.model} · ${f.class}: ${f.classText}`,
        ),
    );
    const list = el('ul', { class: 'answers', id: 'answers', 'aria-label': 'Each family\u2019s answer' });
    for (const a of f.answers) {
        const status = a.verdict === 'right' ? 'found' : a.verdict === 'wrong' ? 'contradicted' : 'missing';
        const b = el(
            'button',
            { type: 'button', class: `node status-${status}`, 'data-kind': a.kind, title: 'Open this question\u2019s graph' },
            a.text,
        );
        b.addEventListener('click', () => post({ type: 'openQuestion', questionId: a.questionId, model: f.model }));
        const li = el('li');
        li.append(b);
        list.append(li);
    }
    aside.append(el('h2', {}, 'Families'), list);
    return aside;
}

function draw(view: GraphView): void {
    const app = document.getElementById('app')!;
    const canvas = el('div', {
        class: 'canvas',
        id: 'graph',
        role: 'img',
        'aria-label': view.view === 'schema' ? 'Schema graph' : view.view === 'fact' ? 'Fact graph' : 'Question path graph',
    });
    const main = el('div', { class: `layout ${view.view}` });
    const side = el('div', { class: 'side' });
    side.append(el('ul', { id: 'nodes' }));
    if (view.view === 'question') side.prepend(...rationale(view.graph));
    factModel = view.view === 'fact' ? view.fact.model : undefined;
    if (view.view === 'fact') side.prepend(factSummary(view.fact));
    main.append(canvas, side);
    app.replaceChildren(toolbar(), el('p', { id: 'note', class: 'note', role: 'status' }), main);
    app.dataset.view = view.view;
    // A new view opens at its top (the panel is reused: a list scrolled to in the last view left the page scrolled).
    window.scrollTo(0, 0);
    fitCanvas();
    cy?.destroy();
    cy = cytoscape({ container: canvas, style: style(), wheelSensitivity: 0.3 });
    cy.on('tap', 'node', evt => void expand(evt.target.id()));
    open(view.drawn);
}

/** Draws a drawing afresh; when it cannot be shown whole with readable labels, its compact drawing instead. */
function open(drawn: DrawnGraph): void {
    if (!cy) return;
    cy.elements().remove();
    more = { ...drawn.more };
    pending.clear();
    focus = drawn.focus;
    add(drawn.elements);
    grown([]);
    if (document.body.dataset.whole !== 'true' && drawn.compact) open(drawn.compact);
}

/**
 * Dagre, left to right and top to bottom; kept: the one that fits the canvas with readable labels, with the fewest
 * edge labels over other labels or nodes, then the larger. Then framed readably (on `around` when not all fits).
 */
function layout(around: string[] = []): void {
    if (!cy) return;
    // Ranks far enough apart for the edge labels between them: their width left to right, their height top to
    // bottom (measured once the edges have a length: a label's box is computed where its edge is drawn).
    let widest = 0,
        tallest = 0;
    const labelled = cy.edges().filter(e => String(e.data('label') ?? '') !== '');
    const lay = (rankDir: 'LR' | 'TB'): LayoutScore => {
        const rankSep = rankDir === 'LR' ? Math.max(40, widest + 16) : Math.max(40, tallest + 24);
        cy!.layout({ name: 'dagre', rankDir, nodeSep: 14, rankSep, edgeSep: 8, fit: false } as cytoscape.LayoutOptions).run();
        cy!.fit(undefined, PAD);
        const labels = labelled.map(e => e.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true }));
        const nodes = cy!.nodes().map(n => n.boundingBox({ includeLabels: true }));
        return { zoom: cy!.zoom(), overlaps: overlaps(labels, nodes) };
    };
    lay('TB');
    const size = new Map<string, { w: number; h: number }>();
    for (const e of labelled) {
        const b = e.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true });
        size.set(e.id(), { w: b.w, h: b.h });
        widest = Math.max(widest, b.w);
        tallest = Math.max(tallest, b.h);
    }
    // A label by the end of its edge where its siblings' edges meet the other end.
    for (const e of labelled) {
        e.removeClass('at-source at-target');
        const end = labelEnd(e.source().outgoers('edge').length, e.target().incomers('edge').length);
        if (end) e.addClass(`at-${end}`);
    }
    const place = (rankDir: 'LR' | 'TB') => {
        for (const e of labelled) {
            const b = size.get(e.id())!;
            e.data('offset', (rankDir === 'LR' ? b.w : b.h) / 2 + 10);
        }
    };
    const run = (rankDir: 'LR' | 'TB') => {
        place(rankDir);
        return lay(rankDir);
    };
    const box = cy.container()!.getBoundingClientRect();
    const first = rankDirection(box.width, box.height),
        second = first === 'LR' ? 'TB' : 'LR';
    const a = run(first);
    if (better(a, run(second))) run(first);
    separate(labelled, size);
    frame(around);
}

/**
 * Moves each edge label still drawn over another label or a node to the place along its edge (mid-edge or by an end,
 * on the line or just off it) where it lies over the fewest (issue 36 item 6: no label over another).
 */
function separate(labelled: cytoscape.EdgeCollection, size: Map<string, { w: number; h: number }>): void {
    if (!cy) return;
    const nodes = cy.nodes().map(n => n.boundingBox({ includeLabels: true }));
    const box = (e: cytoscape.EdgeSingular) => e.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true });
    const clashes = (e: cytoscape.EdgeSingular) => {
        const b = box(e);
        return labelled.filter(o => o.id() !== e.id() && boxesHit(b, box(o))).length + nodes.filter(n => boxesHit(b, n)).length;
    };
    const placeOf = (e: cytoscape.EdgeSingular): LabelPlace => ({
        end: e.hasClass('at-source') ? 'source' : e.hasClass('at-target') ? 'target' : undefined,
        shift: Number(e.data('shift') ?? 0) as LabelPlace['shift'],
    });
    const put = (e: cytoscape.EdgeSingular, p: LabelPlace) => {
        e.removeClass('at-source at-target');
        if (p.end) e.addClass(`at-${p.end}`);
        e.data({ shift: p.shift, shiftPx: p.shift * ((size.get(e.id())?.h ?? 14) + 4) });
    };
    labelled.forEach(e => {
        e.data({ shift: 0, shiftPx: 0 });
    });
    for (let pass = 0; pass < 3; pass++) {
        let moved = false;
        labelled.forEach(e => {
            let least = clashes(e);
            if (least === 0) return;
            const now = placeOf(e);
            let best = now;
            for (const p of labelPlaces(now).slice(1)) {
                put(e, p);
                const n = clashes(e);
                if (n < least) {
                    least = n;
                    best = p;
                    if (n === 0) break;
                }
            }
            put(e, best);
            if (best !== now) moved = true;
        });
        if (!moved) break;
    }
}

const PAD = 12;

/**
 * Fits the graph into the canvas and centres it, unless that would draw labels smaller than 11 px: then it
 * zooms to the smallest readable size centred on `around` (what was just added), else on the question's own
 * entities, to be panned from there. The label size on screen is published on the body (data-label-px).
 */
function frame(around: string[] = []): void {
    if (!cy || cy.elements().empty()) {
        publish();
        return;
    }
    cy.fit(undefined, PAD);
    const fitted = cy.zoom();
    const zoom = readableZoom(fitted);
    if (zoom !== fitted) {
        cy.zoom(zoom);
        const on = (ids: string[]) => ids.reduce((c, id) => c.union(cy!.getElementById(id)), cy!.collection());
        const centre = fitted > zoom ? cy.elements() : ([around, focus].map(on).find(c => c.nonempty()) ?? cy.elements());
        cy.center(centre);
    }
    publish();
}

/** The label size on screen, and whether the whole graph is in view, for the status line and for tests. */
function publish(): void {
    if (!cy) return;
    document.body.dataset.labelPx = (SMALLEST_FONT_PX * cy.zoom()).toFixed(1);
    const { x1, y1, x2, y2 } = cy.elements().renderedBoundingBox();
    const whole = x1 >= 0 && y1 >= 0 && x2 <= cy.width() && y2 <= cy.height();
    document.body.dataset.whole = String(whole);
    note(whole ? '' : 'Zoomed in for reading: drag to pan, Fit shows the whole graph.');
}

/**
 * The drawing fills the panel's height below what is above it (the toolbar with its legend; in a narrow panel also the
 * question's summary), so the page does not scroll to reach the drawing's bottom.
 */
function fitCanvas(): void {
    const main = document.querySelector<HTMLElement>('.layout'),
        canvas = document.getElementById('graph');
    if (!main || !canvas) return;
    const narrow = matchMedia('(max-width: 720px)').matches;
    main.style.height = narrow ? '' : `${Math.max(300, innerHeight - main.getBoundingClientRect().top - 8)}px`;
    canvas.style.height = narrow ? `${Math.max(300, innerHeight - canvas.getBoundingClientRect().top - 8)}px` : '';
}

let resizeTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
        fitCanvas();
        cy?.resize();
        frame();
    }, 150);
});

connect(msg => {
    if (msg.type === 'busy') {
        status(msg.message);
        return;
    }
    if (msg.type === 'error') {
        status(msg.message, 'error');
        return;
    }
    if ((msg.type === 'init' || msg.type === 'update') && msg.panel === 'graph') draw(msg.data);
});
