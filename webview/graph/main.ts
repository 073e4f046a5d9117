/**
 * The graph panel: cytoscape with the dagre layout. Schema view (relations, FKs, FDs) or question view
 * (the KG path coloured by hop verdict, conflicting values as their own nodes, the rationale beside it
 * with keyword spans highlighted). Every label reaches the DOM through textContent or cytoscape's canvas;
 * a list of the nodes makes the graph keyboard-reachable (Enter expands a node from the data).
 */
import cytoscape from 'cytoscape';
import dagre from 'cytoscape-dagre';
import type { GraphView, QuestionGraph } from '../../src/protocol/webview.js';
import { connect, el, requests, status } from '../shared/host.js';
import { claimSummary, hopSummary, neighbourhoodElements, questionElements, rationaleSegments, rankDirection, readableZoom, schemaElements, SMALLEST_FONT_PX, toSvg, type ElementDef } from './model.js';

cytoscape.use(dagre);

let cy: cytoscape.Core | undefined;

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

function style(): cytoscape.StylesheetJson {
    const t = theme();
    return [
        { selector: 'node', style: { label: 'data(label)', color: t.fg, 'background-color': t.node, 'border-color': t.border, 'border-width': 2, shape: 'round-rectangle', 'text-wrap': 'wrap', 'text-valign': 'center', 'text-halign': 'center', width: 'label', height: 'label', padding: '10px', 'font-family': t.font, 'font-size': 12 } },
        { selector: 'node.hidden', style: { 'border-style': 'dashed' } },
        { selector: 'node.value', style: { shape: 'ellipse' } },
        { selector: 'node.status-found', style: { 'border-color': t.found } },
        { selector: 'node.status-missing', style: { 'border-color': t.missing } },
        { selector: 'node.status-contradicted', style: { 'border-color': t.contradicted } },
        { selector: 'node.conflict', style: { 'background-color': t.contradicted, color: t.bg } },
        { selector: 'node:selected', style: { 'border-color': t.focus, 'border-width': 4 } },
        { selector: 'edge', style: { label: 'data(label)', color: t.fg, 'line-color': t.border, 'target-arrow-color': t.border, 'target-arrow-shape': 'triangle', 'curve-style': 'bezier', width: 2, 'font-size': 11, 'text-background-color': t.bg, 'text-background-opacity': 1 } },
        { selector: 'edge.status-found', style: { 'line-color': t.found, 'target-arrow-color': t.found } },
        { selector: 'edge.status-missing', style: { 'line-color': t.missing, 'target-arrow-color': t.missing, 'line-style': 'dashed' } },
        { selector: 'edge.status-contradicted', style: { 'line-color': t.contradicted, 'target-arrow-color': t.contradicted } },
        { selector: 'edge.expanded', style: { 'line-style': 'dotted' } },
    ];
}

function toolbar(): HTMLElement {
    const bar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Graph actions' });
    const button = (label: string, action: () => void) => { const b = el('button', { type: 'button' }, label); b.addEventListener('click', action); bar.append(b); return b; };
    button('Fit', () => cy?.fit(undefined, 30));
    button('Readable', () => frame());
    button('Export PNG', () => void save('png'));
    button('Export SVG', () => void save('svg'));
    return bar;
}

async function save(format: 'png' | 'svg'): Promise<void> {
    if (!cy) return;
    const t = theme();
    const data = format === 'png'
        ? cy.png({ full: true, scale: 2, bg: t.bg, output: 'base64uri' })
        : toSvg(cy.nodes().map(n => ({ id: n.id(), label: String(n.data('label')), x: n.position('x'), y: n.position('y'), w: n.width(), h: n.height(), colour: String(n.style('background-color')), border: String(n.style('border-color')) })),
            cy.edges().map(e => ({ source: e.source().id(), target: e.target().id(), label: String(e.data('label') ?? ''), colour: String(e.style('line-color')) })), t.bg, t.fg);
    const result = await requests.request('save', { format, data });
    note(result.saved ? `Saved ${result.saved}` : 'Export cancelled');
}

function note(text: string): void {
    const n = document.getElementById('note');
    if (n) n.textContent = text;
}

/** The keyboard way into the graph: one button per node; Enter or click selects and expands it. */
function nodeList(elements: ElementDef[]): HTMLElement {
    const list = el('ul', { class: 'nodes', id: 'nodes', 'aria-label': 'Nodes' });
    for (const e of elements) {
        if (e.group !== 'nodes') continue;
        const li = el('li', { 'data-node': e.data.id, 'data-kind': e.data.kind, 'data-status': e.data.status ?? 'none' });
        const b = el('button', { type: 'button', class: `node status-${e.data.status ?? 'none'}`, title: 'Select; press again to expand from the data' }, e.data.label.split('\n')[0]!);
        b.addEventListener('click', () => void expand(e.data.id));
        li.append(b);
        list.append(li);
    }
    return list;
}

async function expand(id: string): Promise<void> {
    if (!cy) return;
    const node = cy.getElementById(id);
    if (node.empty()) return;
    cy.elements().unselect();
    node.select();
    cy.animate({ center: { eles: node } }, { duration: 150 });
    if (node.data('kind') === 'relation' || node.data('kind') === 'conflict') return;
    try {
        const n = await requests.request('expand', { nodeId: id, label: String(node.data('label')), ...(node.data('relation') ? { relation: String(node.data('relation')) } : {}) });
        const existing = new Set(cy.elements().map(x => x.id()));
        const added = neighbourhoodElements(n, existing);
        if (added.length === 0) { note(`Nothing more around ${String(node.data('label'))} in the data.`); return; }
        cy.add(added as cytoscape.ElementDefinition[]);
        layout();
        document.getElementById('nodes')?.replaceWith(nodeList(cy.elements().map(x => ({ group: x.isNode() ? 'nodes' : 'edges', data: x.data(), classes: x.classes().join(' ') }) as ElementDef)));
    } catch (err) {
        note(err instanceof Error ? err.message : String(err));
    }
}

/** An open answer's claims; a click selects (and expands from the data) the entity the claim is about. */
function claimList(g: QuestionGraph): HTMLElement {
    const list = el('ol', { class: 'claims', id: 'claims', 'aria-label': 'Claims of the answer' });
    for (const c of g.claims ?? []) {
        const status = c.data === 'supported' ? 'found' : c.data === 'contradicted' ? 'contradicted' : 'missing';
        const b = el('button', { type: 'button', class: `node status-${status}`, 'data-cause': c.cause, title: `data: ${c.data} · context: ${c.context}` }, claimSummary(c));
        const subject = c.mentions[0];
        if (subject) b.addEventListener('click', () => void expand(subject));
        const li = el('li');
        li.append(b);
        list.append(li);
    }
    return list;
}

function rationale(g: QuestionGraph): HTMLElement {
    const aside = el('aside', { class: 'rationale', id: 'rationale', 'aria-label': 'The model’s answer' });
    aside.append(el('h2', {}, 'Question'), el('p', { class: 'question' }, g.question));
    aside.append(el('p', { class: `verdict ${g.correct ? 'correct' : 'wrong'}`, id: 'verdict' }, `${g.model || 'not run'} · answer ${g.answer} · gold ${g.gold}`));
    aside.append(el('p', { class: 'hops', id: 'hops' }, hopSummary(g)));
    const text = el('p', { class: 'text', id: 'rationale-text' });
    for (const s of rationaleSegments(g.rationale.text, g.rationale.spans)) {
        text.append(s.status ? el('mark', { class: `kw ${s.status}`, title: `${s.status}: ${s.keyword ?? ''}` }, s.text) : document.createTextNode(s.text));
    }
    aside.append(el('h2', {}, 'Rationale'), text);
    if (g.claims?.length) aside.append(el('h2', {}, 'Claims'), claimList(g));
    return aside;
}

function draw(view: GraphView): void {
    const app = document.getElementById('app')!;
    const elements = view.view === 'schema' ? schemaElements(view.schema) : questionElements(view.graph);
    const canvas = el('div', { class: 'canvas', id: 'graph', role: 'img', 'aria-label': view.view === 'schema' ? 'Schema graph' : 'Question path graph' });
    const main = el('div', { class: `layout ${view.view}` });
    const side = el('div', { class: 'side' });
    side.append(nodeList(elements));
    if (view.view === 'question') side.prepend(rationale(view.graph));
    main.append(canvas, side);
    app.replaceChildren(toolbar(), el('p', { id: 'note', class: 'note', role: 'status' }), main);
    app.dataset.view = view.view;
    cy?.destroy();
    cy = cytoscape({ container: canvas, elements: elements as cytoscape.ElementDefinition[], style: style(), wheelSensitivity: 0.3 });
    layout();
    cy.on('tap', 'node', evt => void expand(evt.target.id()));
}

/** Dagre along the canvas's longer side, then framed readably. */
function layout(): void {
    if (!cy) return;
    const box = cy.container()!.getBoundingClientRect();
    cy.layout({ name: 'dagre', rankDir: rankDirection(box.width, box.height), nodeSep: 30, rankSep: 70, fit: false } as cytoscape.LayoutOptions).run();
    frame();
}

/**
 * Fits the graph into the canvas, unless that would draw labels smaller than 11 px: then it zooms to the
 * smallest readable size and shows the graph from its start (top left), to be panned. The label size on
 * screen is published on the body (data-label-px) for tests and for the status line.
 */
function frame(): void {
    if (!cy) return;
    const pad = 30;
    cy.fit(undefined, pad);
    const zoom = readableZoom(cy.zoom());
    if (zoom !== cy.zoom()) {
        const bb = cy.elements().boundingBox();
        const { height } = cy.container()!.getBoundingClientRect();
        cy.zoom(zoom);
        const y = bb.h * zoom + 2 * pad <= height ? (height - bb.h * zoom) / 2 - bb.y1 * zoom : pad - bb.y1 * zoom;
        cy.pan({ x: pad - bb.x1 * zoom, y });
    }
    document.body.dataset.labelPx = (SMALLEST_FONT_PX * cy.zoom()).toFixed(1);
}

let resizeTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { cy?.resize(); frame(); }, 150);
});

connect(msg => {
    if (msg.type === 'busy') { status(msg.message); return; }
    if (msg.type === 'error') { status(msg.message, 'error'); return; }
    if ((msg.type === 'init' || msg.type === 'update') && msg.panel === 'graph') draw(msg.data);
});
