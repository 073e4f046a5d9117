/**
 * Compare Models: the engine's paired matrices as grids (row → column: the difference column − row), the winner
 * marked only where the adjusted test names one; clicking a cell lists its flipped questions below the grid. Every
 * text comes from the engine (core/report/paired-render.ts compareGrid); this only lays it out, as text.
 */
import type { CompareGrid, CompareGridCell, CompareGridMatrix } from '../../src/protocol/webview.js';
import { connect, el, status } from '../shared/host.js';

function cellButton(c: CompareGridCell, details: HTMLElement, label: string): HTMLTableCellElement {
    const td = el('td', { class: `pair${c.winner ? ` win-${c.winner}` : ''}` });
    const b = el('button', { class: 'link pair-open', title: c.detail, 'aria-label': `${label}: ${c.detail}` }, c.text);
    b.addEventListener('click', () => {
        const list = el('div', { class: 'flips', role: 'region', 'aria-label': 'Flipped questions' });
        list.append(el('p', { class: 'detail' }, c.detail));
        for (const f of c.flips) {
            list.append(el('h3', {}, f.title));
            const ul = el('ul');
            for (const q of f.questions) ul.append(el('li', {}, q));
            list.append(ul);
        }
        details.replaceChildren(list);
    });
    td.append(b);
    return td;
}

function matrix(m: CompareGridMatrix): HTMLElement {
    const section = el('section', { class: 'matrix' });
    section.append(el('h2', {}, m.title));
    const table = el('table', { class: 'grid' });
    const head = el('tr');
    head.append(el('th', { class: 'corner' }, 'row → column'));
    for (const c of m.cells) head.append(el('th', { scope: 'col' }, c));
    table.append(head);
    const details = el('div', { class: 'details' });
    m.rows.forEach((row, i) => {
        const tr = el('tr');
        tr.append(el('th', { scope: 'row' }, m.cells[i]!));
        row.forEach((c, j) =>
            tr.append(c ? cellButton(c, details, `${m.cells[i]} → ${m.cells[j]}`) : el('td', { class: 'empty' })),
        );
        table.append(tr);
    });
    section.append(el('div', { class: 'scroll' }), details);
    section.querySelector('.scroll')!.append(table);
    return section;
}

function layout(d: CompareGrid): void {
    const app = document.getElementById('app')!;
    const header = el('header');
    header.append(
        el('h1', {}, d.title),
        el('p', { class: 'note' }, d.method),
        el(
            'p',
            { class: 'note' },
            'Green: the column wins; red: the row wins (adjusted test). Click a difference for its flipped questions.',
        ),
    );
    app.replaceChildren(header, ...d.matrices.map(matrix));
}

connect(msg => {
    if (msg.type === 'busy') {
        status(msg.message);
        return;
    }
    if (msg.type === 'error') {
        status(msg.message, 'error');
        return;
    }
    if ((msg.type === 'init' || msg.type === 'update') && msg.panel === 'compare') layout(msg.data);
});
