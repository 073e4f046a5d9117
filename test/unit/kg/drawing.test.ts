// What the graph panel draws (core/kg/drawing): large graphs collapsed behind "+N more" nodes around the
// question's own entities, nothing lost, everything reachable by expanding.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { collapse, factDrawing, focusOf, NEIGHBOURS_SHOWN, NODES_SHOWN, questionDrawing } from '../../../src/core/kg/drawing.js';
import type { DrawnGraph, ElementDef, FactGraph, QuestionGraph } from '../../../src/protocol/webview.js';

const node = (id: string, extra: Partial<{ status: 'found' | 'missing' | 'contradicted'; kind: string }> = {}): ElementDef => ({
    group: 'nodes',
    data: { id, label: id, kind: extra.kind ?? 'entity', ...(extra.status ? { status: extra.status } : {}) },
});
const edge = (from: string, to: string): ElementDef => ({
    group: 'edges',
    data: { id: `${from}->${to}`, source: from, target: to, label: 'r' },
});

const ids = (els: readonly ElementDef[], group: 'nodes' | 'edges' = 'nodes') =>
    els.filter(e => e.group === group).map(e => e.data.id);

/** Expands every "+N more" node, as the panel does on clicks, until none is left; returns the node ids drawn. */
function expandAll(d: DrawnGraph): Set<string> {
    const drawn = new Set(ids(d.elements));
    const more = { ...d.more };
    for (let id = [...drawn].find(x => more[x]); id; id = [...drawn].find(x => more[x])) {
        drawn.delete(id);
        for (const x of ids(more[id]!)) drawn.add(x);
        delete more[id];
    }
    return drawn;
}

describe('collapsing a graph for drawing', () => {
    const star = [
        node('hub'),
        ...Array.from({ length: 30 }, (_, i) => node(`n${i}`)),
        ...Array.from({ length: 30 }, (_, i) => edge('hub', `n${i}`)),
    ];

    it('keeps the first neighbours of a node and puts the rest behind one "+N more" node', () => {
        const d = collapse(star, ['hub']);
        const shown = ids(d.elements);
        assert.equal(shown.filter(id => id.startsWith('n')).length, NEIGHBOURS_SHOWN);
        const more = d.elements.find(e => e.data.id === 'more:hub')!;
        assert.equal(more.data.label, `+${30 - NEIGHBOURS_SHOWN} more`);
        assert.ok(ids(d.elements, 'edges').includes('more:hub:edge'), 'the "+N more" node hangs off its node');
        // Expanding it adds the next page and a "+N more" for what is still left.
        const page = d.more['more:hub']!;
        assert.equal(ids(page).filter(id => id.startsWith('n')).length, NEIGHBOURS_SHOWN);
        assert.equal(page.find(e => e.data.id === 'more2:hub')?.data.label, `+${30 - 2 * NEIGHBOURS_SHOWN} more`);
        assert.equal(
            ids(page, 'edges').filter(id => id.startsWith('hub->')).length,
            NEIGHBOURS_SHOWN,
            'with their edges to the hub',
        );
    });

    it('loses nothing: every node is drawn or reachable through "+N more" nodes', () => {
        const chain = Array.from({ length: 40 }, (_, i) => node(`c${i}`));
        const els = [
            ...star,
            ...chain,
            ...chain.slice(1).map((_, i) => edge(`c${i}`, `c${i + 1}`)),
            edge('n3', 'c0'),
            node('alone'),
        ];
        const d = collapse(els, ['hub']);
        assert.ok(ids(d.elements).filter(id => !id.startsWith('more')).length <= NODES_SHOWN, 'opens with at most the total');
        const all = expandAll(d);
        for (const id of ids(els)) assert.ok(all.has(id), `${id} is reachable`);
        assert.ok(
            !d.elements.some(
                e =>
                    e.group === 'edges' && (!ids(d.elements).includes(e.data.source) || !ids(d.elements).includes(e.data.target)),
            ),
            'no edge is drawn to a node that is not',
        );
    });

    it('never hides the focus, and keeps what explains the verdict before the rest', () => {
        const els = [
            node('q'),
            ...Array.from({ length: 12 }, (_, i) => node(`v${i}`)),
            node('bad', { status: 'contradicted' }),
            node('said', { kind: 'conflict' }),
            ...Array.from({ length: 12 }, (_, i) => edge('q', `v${i}`)),
            edge('q', 'bad'),
            edge('q', 'said'),
        ];
        const d = collapse(els, ['q']);
        const shown = ids(d.elements);
        assert.ok(shown.includes('q') && shown.includes('said') && shown.includes('bad'), shown.join(', '));
        assert.deepEqual(d.focus, ['q']);
    });

    it('draws every focus node, also one reached only through nodes that are not drawn', () => {
        // A's neighbours come first; B hangs at the end of a chain from A.
        const chain = ['c1', 'c2', 'c3', 'c4', 'c5'];
        const els = [
            node('A'),
            node('B'),
            ...Array.from({ length: 8 }, (_, i) => node(`a${i}`, { status: 'contradicted' })),
            ...chain.map(id => node(id)),
            ...Array.from({ length: 8 }, (_, i) => edge('A', `a${i}`)),
            edge('A', 'c1'),
            ...chain.slice(1).map((id, i) => edge(chain[i]!, id)),
            edge('c5', 'B'),
        ];
        for (const [perNode, total] of [
            [NEIGHBOURS_SHOWN, NODES_SHOWN],
            [2, 9],
            [1, 7],
        ] as const) {
            const d = collapse(els, ['A', 'B'], perNode, total);
            for (const id of ['A', 'B']) assert.ok(ids(d.elements).includes(id), `${id} drawn (${perNode}, ${total})`);
            const all = expandAll(d);
            for (const id of ids(els)) assert.ok(all.has(id), `${id} reachable (${perNode}, ${total})`);
        }
    });

    it('leaves a small graph as it is', () => {
        const els = [node('a'), node('b'), edge('a', 'b')];
        const d = collapse(els, ['a']);
        assert.deepEqual(d.elements, els);
        assert.deepEqual(d.more, {});
    });
});

describe("a question's own entities", () => {
    const graph: QuestionGraph = {
        questionId: 'q',
        question: 'Was Avatar (2009) directed by James Cameron?',
        model: 'm',
        gold: 'yes',
        answer: 'no',
        correct: false,
        hops: [],
        rationale: { text: '', spans: [] },
        path: {
            nodes: [
                { id: 'Movie(Avatar, 2009)', kind: 'entity', relation: 'Movie', label: 'Avatar, 2009', hop: 0, given: true },
                {
                    id: 'Movie.director=James Cameron',
                    kind: 'value',
                    relation: 'Movie',
                    label: 'James Cameron',
                    hop: 1,
                    given: false,
                },
            ],
            edges: [{ from: 'Movie(Avatar, 2009)', to: 'Movie.director=James Cameron', label: 'director', hop: 1 }],
        },
    };

    it('are the entities the path starts from, unless the family names them; they are marked', () => {
        assert.deepEqual(focusOf(graph), ['Movie(Avatar, 2009)']);
        assert.deepEqual(focusOf({ ...graph, focus: ['Movie.director=James Cameron', 'gone'] }), [
            'Movie.director=James Cameron',
        ]);
        const d = questionDrawing(graph);
        const start = d.elements.find(e => e.data.id === 'Movie(Avatar, 2009)')!;
        assert.match(start.classes!, /\bfocus\b/);
        assert.equal(start.group === 'nodes' && start.data.focus, true);
        assert.deepEqual(d.focus, ['Movie(Avatar, 2009)']);
    });

    it('an open question opens on its seeds, its context collapsed around them', async () => {
        const { loadSpec } = await import('../../../src/core/spec/load.js');
        const { loadData } = await import('../../../src/core/data/index.js');
        const { generateQuestions } = await import('../../../src/core/probes/generate.js');
        const { questionGraph } = await import('../../../src/core/kg/question-graph.js');
        const { model: spec } = await loadSpec(path.resolve('test/fixtures/open/open.probe'));
        const q = [...generateQuestions(spec, await loadData(spec), { probe: 'pair' }).questions].find(
            x => x.phrasing === 'rewire-100',
        )!;
        const g = questionGraph(q);
        const seeds = g.path.nodes.filter(n => n.hop === 0).map(n => n.id);
        const d = questionDrawing(g);
        assert.ok(seeds.length > 0);
        assert.deepEqual(
            d.focus,
            seeds.filter(id => g.path.nodes.find(n => n.id === id)!.kind === 'entity'),
        );
        for (const id of d.focus) assert.ok(ids(d.elements).includes(id), `seed ${id} is drawn`);
        assert.ok(ids(d.elements).filter(id => !id.startsWith('more')).length <= NODES_SHOWN);
        assert.equal(expandAll(d).size >= g.path.nodes.length, true);
    });

    it('falls back to smaller drawings in turn for a narrow panel, each keeping the focus and losing nothing', () => {
        // Two entities asked about, each with many neighbours that have neighbours of their own.
        const nodes: QuestionGraph['path']['nodes'] = [
            { id: 'A', kind: 'entity', relation: 'R', label: 'A', hop: 0, given: true },
            { id: 'B', kind: 'entity', relation: 'R', label: 'B', hop: 0, given: true },
        ];
        const edges: QuestionGraph['path']['edges'] = [];
        for (const root of ['A', 'B'])
            for (let i = 0; i < 5; i++) {
                nodes.push({ id: `${root}${i}`, kind: 'entity', relation: 'R', label: `${root}${i}`, hop: 1, given: true });
                edges.push({ from: root, to: `${root}${i}`, label: 'r', hop: 1 });
                nodes.push({ id: `${root}${i}x`, kind: 'value', relation: 'R', label: `${root}${i}x`, hop: 2, given: true });
                edges.push({ from: `${root}${i}`, to: `${root}${i}x`, label: 's', hop: 2 });
            }
        const d = questionDrawing({ ...graph, path: { nodes, edges }, focus: ['A', 'B'] });
        const chain: DrawnGraph[] = [];
        for (let x: DrawnGraph | undefined = d; x; x = x.compact) chain.push(x);
        assert.equal(chain.length, 3, 'the drawing, the compact one and the smallest');
        const drawnNodes = (x: DrawnGraph) => ids(x.elements).length;
        for (let i = 1; i < chain.length; i++)
            assert.ok(drawnNodes(chain[i]!) < drawnNodes(chain[i - 1]!), `drawing ${i} is smaller than drawing ${i - 1}`);
        assert.ok(
            drawnNodes(chain[2]!) <= 7,
            `the smallest draws at most 7 nodes, "+N more" included (${drawnNodes(chain[2]!)})`,
        );
        for (const x of chain) {
            for (const id of ['A', 'B']) assert.ok(ids(x.elements).includes(id), `${id} is drawn`);
            const all = expandAll(x);
            for (const n of nodes) assert.ok(all.has(n.id), `${n.id} is reachable`);
        }
    });
});

describe('the fact view (docs/facts.md)', () => {
    const fact: FactGraph = {
        id: 'f1',
        label: 'Movie(Avatar, 2009).director',
        relation: 'Movie',
        key: ['Avatar', '2009'],
        attribute: 'director',
        value: 'James Cameron',
        model: 'm',
        class: 'fragile',
        classText: 'right in some families, wrong or abstaining in others',
        answers: [
            { kind: 'binary', verdict: 'right', text: 'binary · right (2 answers)', questionId: 'q1' },
            {
                kind: 'statement',
                verdict: 'wrong',
                value: 'Steven Spielberg',
                text: 'statement · wrong: Steven Spielberg (1 answer)',
                questionId: 'q2',
            },
            { kind: 'choice', verdict: 'abstained', text: 'choice · abstained (1 answer)', questionId: 'q3' },
        ],
    };

    it("draws the fact's edge in the middle and each family's answer around it, coloured by its verdict, opening its question", () => {
        const d = factDrawing(fact);
        const nodes = d.elements.filter(e => e.group === 'nodes');
        const edges = d.elements.filter(e => e.group === 'edges');
        const edge = edges.find(e => e.data.label === 'director')!;
        assert.deepEqual(
            [edge.data.source, edge.data.target].map(id => nodes.find(n => n.data.id === id)!.data.label),
            ['Movie(Avatar, 2009)', 'James Cameron'],
        );
        const answers = nodes.filter(n => n.data.kind === 'answer');
        assert.deepEqual(
            answers.map(n => [n.data.label, n.data.status, n.data.questionId]),
            [
                ['binary\nright', 'found', 'q1'],
                ['statement\nwrong: Steven Spielberg', 'contradicted', 'q2'],
                ['choice\nabstained', 'missing', 'q3'],
            ],
        );
        // Around the edge: one family before the entity, the next after the value, and so on.
        const into = (id: string) => edges.filter(e => e.data.target === id).map(e => e.data.source);
        const from = (id: string) => edges.filter(e => e.data.source === id).map(e => e.data.target);
        assert.deepEqual(into(edge.data.source).sort(), ['answer:binary', 'answer:choice']);
        assert.deepEqual(from(edge.data.target), ['answer:statement']);
        assert.deepEqual(d.focus, [edge.data.source]);
        assert.deepEqual(d.more, {});
    });
});
