/**
 * Review Answers: the engine's view of one reviewer's round (core/report/review-view.ts) — the question, gold, the data
 * row(s), the response with the span the reader read marked, progress and the reader's running agreement — and the
 * keys of `halluprobe review`, taken alone (no Enter). The reader's verdict and its explanation stay hidden until the
 * answer is labelled (the next answer then says what the reader had read), or until `v` shows them; `a` (agree with
 * the reader) shows them first when they are hidden. An open answer's claims are listed with a digit each: the digit
 * marks the claim supported, contradicted, unverifiable, unmarked in turn (stored with the label). Every text is the engine's, set as text, never as markup; this
 * page counts nothing.
 */
import type { ReviewActionName, ReviewItemView, ReviewView } from '../../src/protocol/webview.js';
import { connect, el, post, status } from '../shared/host.js';

let current: ReviewView | undefined;
let revealed = false;

/** The response as text nodes, the reader's span(s) in <mark>. */
function answerText(a: ReviewItemView['answer']): HTMLElement {
    const pre = el('div', { class: 'answer', id: 'answer' });
    let at = 0;
    for (const s of [...a.spans].sort((x, y) => x.start - y.start)) {
        if (s.start < at) continue;
        pre.append(document.createTextNode(a.text.slice(at, s.start)));
        pre.append(el('mark', { title: `read by the reader: ${s.title}` }, a.text.slice(s.start, s.end)));
        at = s.end;
    }
    pre.append(document.createTextNode(a.text.slice(at)));
    if (!a.text) pre.append(el('em', {}, '(empty response)'));
    return pre;
}

function field(name: string, value: HTMLElement | string, id?: string): HTMLElement {
    const row = el('div', { class: 'field' });
    row.append(el('div', { class: 'name' }, name));
    const v = typeof value === 'string' ? el('div', { class: 'value' }, value) : value;
    if (id) v.id = id;
    row.append(v);
    return row;
}

function reader(item: ReviewItemView): HTMLElement {
    const box = el('section', { class: 'reader', id: 'reader', 'aria-label': "The reader's verdict" });
    if (!revealed) {
        box.append(el('p', { class: 'note' }, "The reader's verdict is hidden until you label this answer (v shows it)."));
        return box;
    }
    box.append(field('Reader', item.reader.verdict, 'verdict'));
    box.append(field('Stratum', item.reader.stratum));
    if (item.reader.read) box.append(field('Read', item.reader.read));
    if (item.reader.explanation.length) {
        const ul = el('ul', { class: 'why' });
        for (const w of item.reader.explanation) ul.append(el('li', {}, w));
        box.append(field('Why', ul));
    }
    return box;
}

function rows(item: ReviewItemView): HTMLElement {
    const list = el('ul', { class: 'rows' });
    for (const r of item.rows) {
        const li = el('li');
        const b = el('button', { class: 'link', title: `Open ${r.file}:${r.line}` }, r.label);
        b.addEventListener('click', () => post({ type: 'openSource', file: r.file, line: r.line }));
        li.append(b);
        list.append(li);
    }
    return list;
}

/** An open answer's claims, each with its digit and the reviewer's mark (a click marks it too). */
function claimList(claims: NonNullable<ReviewItemView['claims']>): HTMLElement {
    const list = el('ol', {
        class: 'claims',
        id: 'claims',
        'aria-label': "Claims: press a claim's digit to mark it supported, contradicted, unverifiable, unmarked in turn",
    });
    for (const c of claims) {
        const li = el('li', { 'data-key': c.key, 'data-mark': c.mark });
        const b = el('button', { class: 'link', title: `Mark claim ${c.key} (key ${c.key})` });
        b.append(el('kbd', {}, c.key), document.createTextNode(` ${c.text} — `), el('strong', { class: 'mark' }, c.mark));
        b.addEventListener('click', () => press(c.key));
        li.append(b);
        list.append(li);
    }
    return list;
}

function keysLegend(v: ReviewView): HTMLElement {
    const bar = el('div', { class: 'keys', role: 'toolbar', 'aria-label': 'Keys' });
    for (const k of [...v.keys, { key: 'v', name: "show the reader's verdict", action: undefined }]) {
        const b = el('button', { class: 'key', 'data-key': k.key, title: k.name });
        b.append(el('kbd', {}, k.key), document.createTextNode(` ${k.name.split(':')[0]}`));
        b.addEventListener('click', () => press(k.key));
        bar.append(b);
    }
    return bar;
}

function layout(v: ReviewView): void {
    const app = document.getElementById('app')!;
    const header = el('header');
    header.append(el('h1', {}, v.title));
    header.append(el('p', { class: 'progress', id: 'progress' }, v.progress));
    header.append(el('p', { class: 'agreement', id: 'agreement' }, v.agreement.text));
    const last = el('p', { class: 'last', id: 'last', role: 'status', 'aria-live': 'polite' }, v.last ?? '');
    const parts: HTMLElement[] = [header, last];
    if (v.item) {
        const it = v.item;
        const item = el('section', { class: 'item', id: 'item', 'data-slot': it.slot, 'aria-label': 'The answer to label' });
        item.append(el('p', { class: 'stratum', id: 'stratum' }, it.header), el('p', { class: 'note' }, it.where));
        item.append(field('Question', it.question, 'question'), field('Gold', it.gold, 'gold'));
        if (it.rows.length) item.append(field('Data', rows(it)));
        item.append(field('Answer', answerText(it.answer)));
        if (it.claims?.length) item.append(field('Claims', claimList(it.claims)));
        item.append(reader(it));
        parts.push(item, keysLegend(v));
    } else {
        parts.push(el('p', { class: 'end', id: 'end' }, v.end ?? ''));
    }
    app.replaceChildren(...parts);
}

/** A key: `v` shows the reader's verdict; `a` shows it first when hidden; the others go to the engine. */
function press(key: string): void {
    const v = current;
    if (!v) return;
    if (key === 'v' || (key === 'a' && !revealed && v.item)) {
        revealed = true;
        layout(v);
        if (key === 'a')
            document.getElementById('last')!.textContent = "The reader's verdict is shown: press a again to agree with it.";
        return;
    }
    const k = v.keys.find(x => x.key === key) ?? v.item?.claims?.find(x => x.key === key);
    if (!k) return;
    if (!v.item && k.action !== 'undo') return;
    const action: ReviewActionName = k.action;
    post(v.item && action !== 'undo' ? { type: 'review', action, slot: v.item.slot } : { type: 'review', action });
}

document.addEventListener('keydown', e => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    const target = e.target as HTMLElement | null;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    const key = e.key.toLowerCase();
    if (key.length !== 1) return;
    e.preventDefault();
    press(key);
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
    if ((msg.type === 'init' || msg.type === 'update') && msg.panel === 'review') {
        // A new answer starts hidden again; the same answer (undo of nothing, a stale key) keeps what was shown.
        if (msg.data.item?.slot !== current?.item?.slot) revealed = false;
        current = msg.data;
        layout(msg.data);
    }
});
