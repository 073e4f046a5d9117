import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
    rationaleSegments,
    hopSummary,
    verdictLine,
    claimSummary,
    readableZoom,
    SMALLEST_FONT_PX,
    overlaps,
    better,
    labelEnd,
} from '../../../webview/graph/model.js';
import { schemaElements, questionElements, neighbourhoodElements } from '../../../src/core/kg/drawing.js';
import type { QuestionGraph, SchemaGraph } from '../../../src/protocol/webview.js';
import type { Question } from '../../../src/core/probes/index.js';
import { questionGraph } from '../../../src/core/kg/index.js';

const schema: SchemaGraph = {
    spec: '/x/movie.probe',
    relations: [
        {
            name: 'Movie',
            label: 'movie',
            attributes: ['title', 'year', 'director'],
            keys: [['title', 'year']],
            fds: [{ id: 'movie_director', lhs: ['title', 'year'], rhs: ['director'] }],
        },
        { name: 'Director', attributes: ['name', 'birth_year'], keys: [['name']], fds: [], rows: 4 },
    ],
    fks: [
        { id: 'directed_by', from: 'Movie', to: 'Director', fromAttributes: ['director'], toAttributes: ['name'] },
        { id: 'dangling', from: 'Movie', to: 'Studio', fromAttributes: ['studio'], toAttributes: ['name'] },
    ],
};

const graph: QuestionGraph = {
    questionId: 'q1',
    question: 'Was the director of Avatar (2009) born in the 1950s?',
    model: 'm',
    gold: 'yes',
    answer: 'yes',
    correct: true,
    path: {
        nodes: [
            { id: 'm', kind: 'entity', relation: 'Movie', label: 'Avatar (2009)', hop: 0, given: true },
            { id: 'd', kind: 'entity', relation: 'Director', label: 'James Cameron', hop: 1, given: false },
            { id: 'b', kind: 'value', relation: 'Director', attribute: 'birth_year', label: '1950s', hop: 2, given: true },
        ],
        edges: [
            { from: 'm', to: 'd', label: 'director', hop: 1 },
            { from: 'd', to: 'b', label: 'birth_year', hop: 2 },
        ],
    },
    hops: [
        {
            hop: 1,
            status: 'contradicted',
            keywords: [{ value: 'James Cameron', status: 'contradicted', conflict: 'Steven Spielberg' }],
        },
        { hop: 2, status: 'found', keywords: [{ value: '1954', status: 'found' }] },
    ],
    failedHop: 1,
    rationale: { text: 'Steven Spielberg, born 1954, directed it.', spans: [] },
};

describe('graph view-model', () => {
    it('draws relations with keys and FDs, and FKs between known relations only', () => {
        const els = schemaElements(schema);
        const nodes = els.filter(e => e.group === 'nodes');
        const edges = els.filter(e => e.group === 'edges');
        assert.equal(nodes.length, 2);
        assert.match(nodes[0]!.data.label, /^Movie \(movie\)\nkey \(title, year\)\ntitle, year → director$/);
        assert.match(nodes[1]!.data.label, /4 rows/);
        assert.equal(edges.length, 1);
        assert.deepEqual([edges[0]!.data.source, edges[0]!.data.target], ['rel:Movie', 'rel:Director']);
    });

    it('colours each hop by its verdict and draws the conflicting entity as its own node', () => {
        const els = questionElements(graph);
        const byId = new Map(els.map(e => [e.data.id, e]));
        assert.equal(byId.get('m')!.data.status, 'none');
        assert.equal(byId.get('d')!.data.status, 'contradicted');
        assert.equal(byId.get('b')!.data.status, 'found');
        const conflict = els.find(e => e.group === 'nodes' && e.data.kind === 'conflict');
        assert.equal(conflict?.data.label, 'Steven Spielberg');
        const conflictEdge = els.find(e => e.group === 'edges' && e.data.target === conflict!.data.id);
        assert.equal(conflictEdge?.group === 'edges' ? conflictEdge.data.source : undefined, 'd');
        assert.deepEqual(
            els.filter(e => e.classes?.startsWith('path')).map(e => e.data.status),
            ['contradicted', 'found'],
        );
        assert.equal(hopSummary(graph), 'hop 1 contradicted (James Cameron) · hop 2 found');
        // An answered open question (claims, no hops) is never "not run yet": its claims say what went wrong.
        const open = {
            ...graph,
            hops: [],
            failedHop: undefined,
            claims: [
                {
                    text: 'Avatar was directed by Sam Mendes',
                    data: 'contradicted' as const,
                    context: 'supported' as const,
                    cause: 'followed-corrupted' as const,
                    mentions: [],
                    dataEdge: { head: 'Avatar', relation: 'director', tail: 'James Cameron' },
                },
                {
                    text: 'Avatar was released in 2009',
                    data: 'supported' as const,
                    context: 'supported' as const,
                    cause: 'grounded' as const,
                    mentions: [],
                },
            ],
        };
        assert.equal(
            hopSummary(open),
            '2 claims: 1 contradicted, 1 supported — "Avatar was directed by Sam Mendes" followed a corrupted context edge (data: Avatar director James Cameron)',
        );
        assert.equal(
            hopSummary({ ...graph, hops: [], failedHop: undefined, answer: 'yes', correct: true }),
            'answered yes ✓ (no hops to check)',
        );
    });

    it('a question never run reads "not run yet", with no ✗ and not coloured as a wrong answer (issue 36 item 6)', () => {
        const q = {
            id: 'q1',
            probe: 'movie_binary',
            kind: 'binary',
            phrasing: 'basic',
            question: 'Is there a movie?',
            gold: 'yes',
            path: { nodes: [], edges: [] },
        } as unknown as Question;
        const unrun = questionGraph(q);
        assert.equal(hopSummary(unrun), 'not run yet');
        assert.deepEqual(verdictLine(unrun), { text: 'not run yet · gold yes', tone: 'unrun' });
        const answered = { ...unrun, model: 'simulator', answer: 'no', correct: false };
        assert.deepEqual(verdictLine(answered), { text: 'simulator · answer no · gold yes', tone: 'wrong' });
        assert.equal(hopSummary(answered), 'answered no ✗ (no hops to check)');
    });

    it('cuts the rationale into segments, clipping and ignoring overlapping spans', () => {
        const text = 'Steven Spielberg, born 1954.';
        const segs = rationaleSegments(text, [
            { start: 23, end: 27, status: 'found', keyword: '1954' },
            { start: 0, end: 16, status: 'contradicted', keyword: 'James Cameron' },
            { start: 5, end: 10, status: 'found', keyword: 'x' },
            { start: 26, end: 999, status: 'missing', keyword: 'y' },
        ]);
        assert.equal(segs.map(s => s.text).join(''), text);
        assert.deepEqual(
            segs.map(s => s.status),
            ['contradicted', undefined, 'found', 'missing'],
        );
        assert.deepEqual(rationaleSegments('', []), [{ text: '' }]);
        assert.deepEqual(rationaleSegments('<script>', [{ start: -5, end: 3, status: 'found', keyword: 'k' }]), [
            { text: '<sc', status: 'found', keyword: 'k' },
            { text: 'ript>' },
        ]);
    });

    it('adds the neighbourhood, not the expanded node again', () => {
        const els = neighbourhoodElements('d', {
            nodes: [
                { id: 'd', label: 'x', kind: 'entity', hop: 0, given: true },
                { id: 'n2', label: 'Titanic', kind: 'entity', relation: 'Movie', hop: 1, given: true },
            ],
            edges: [{ from: 'n2', to: 'd', label: 'director', hop: 1 }],
        });
        assert.deepEqual(
            els.map(e => e.data.id),
            ['n2', 'x:n2->d:director'],
        );
    });
});

describe('SVG export', () => {
    it('draws nodes and edges and escapes every label', async () => {
        const { toSvg } = await import('../../../webview/graph/model.js');
        const svg = toSvg(
            [
                { id: 'a', label: '<script>alert(1)</script>', x: 0, y: 0, w: 80, h: 30, colour: '#111', border: '#0f0' },
                { id: 'b', label: 'Tom & "Jerry"\nline 2', x: 200, y: 0, w: 80, h: 40, colour: '#111', border: '#f00' },
            ],
            [
                { source: 'a', target: 'b', label: 'director', colour: '#888' },
                { source: 'a', target: 'gone', label: 'x', colour: '#888' },
            ],
            '#000',
            '#fff',
        );
        assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
        assert.ok(!svg.includes('<script>'));
        assert.match(svg, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
        assert.match(svg, /Tom &amp; &quot;Jerry&quot;/);
        assert.equal((svg.match(/<line /g) ?? []).length, 1, 'an edge to a missing node is left out');
        assert.equal((svg.match(/<text /g) ?? []).length, 4, 'edge label + one label line + two label lines');
        assert.equal(toSvg([], [], '#000', '#fff'), '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
    });
});

describe("claims over an open question's context", () => {
    const open: QuestionGraph = {
        questionId: 'o',
        question: 'Explain Titanic.',
        model: 'm',
        gold: 'yes',
        answer: 'yes',
        correct: false,
        hops: [],
        rationale: { text: '', spans: [] },
        path: {
            nodes: [
                { id: 'T', kind: 'entity', relation: 'Movie', label: 'Titanic', hop: 0, given: true },
                { id: 'C', kind: 'entity', relation: 'Director', label: 'James Cameron', hop: 1, given: true },
                { id: 'Y', kind: 'value', relation: 'Movie', label: '1997', hop: 1, given: true },
            ],
            edges: [
                { from: 'T', to: 'C', label: 'directed by (rewire)', hop: 1 },
                { from: 'T', to: 'Y', label: 'release year', hop: 1 },
            ],
        },
        claims: [
            {
                text: 'Titanic directed by James Cameron',
                data: 'supported',
                context: 'supported',
                cause: 'grounded',
                mentions: ['T', 'C'],
                contextEdge: { head: 'T', tail: 'C' },
            },
            {
                text: 'Titanic released in 1998',
                data: 'contradicted',
                context: 'contradicted',
                cause: 'invented',
                mentions: ['T'],
                dataEdge: { head: 'T', relation: 'Movie.year', tail: 'Y' },
            },
        ],
    };

    it('colours mentioned nodes and the edges claims rest on; the worst label wins where claims meet', () => {
        const els = questionElements(open);
        const status = (id: string) => els.find(e => e.group === 'nodes' && e.data.id === id)!.data.status;
        assert.equal(status('C'), 'found');
        assert.equal(status('T'), 'contradicted');
        assert.equal(status('Y'), 'none');
        const directed = els.find(e => e.group === 'edges' && e.data.target === 'C')!;
        assert.equal(directed.data.status, 'found');
        assert.equal(els.find(e => e.group === 'edges' && e.data.target === 'Y')!.data.status, 'none');
    });

    it('says where each claim came from', () => {
        assert.equal(claimSummary(open.claims![1]!), 'Titanic released in 1998 — invented (data: T Movie.year Y)');
        assert.equal(claimSummary(open.claims![0]!), 'Titanic directed by James Cameron — supported by the data');
    });
    it('opens every graph with labels at least 11 px high (a fit that would shrink them zooms in instead)', () => {
        for (const fit of [0.05, 0.2, 0.5, 0.9, 1, 1.5]) assert.ok(readableZoom(fit) * SMALLEST_FONT_PX >= 11, `fit ${fit}`);
        assert.equal(readableZoom(1.5), 1.5, 'a small graph keeps its fit');
    });
});

describe('choosing a layout', () => {
    it('counts the edge labels drawn over another label or a node', () => {
        const box = (x1: number, y1: number, w = 40, h = 14) => ({ x1, y1, x2: x1 + w, y2: y1 + h });
        assert.equal(overlaps([box(0, 0), box(100, 0)], [box(0, 50)]), 0);
        assert.equal(overlaps([box(0, 0), box(30, 5)], []), 2, 'two labels over each other');
        assert.equal(overlaps([box(0, 0)], [box(20, 10)]), 1, 'a label over a node');
        assert.equal(overlaps([box(0, 0)], [box(40, 0)]), 0, 'touching is not covering');
    });

    it('prefers a layout readable when fitted, then fewer covered labels, then the larger', () => {
        assert.equal(better({ zoom: 1, overlaps: 3 }, { zoom: 0.8, overlaps: 0 }), true);
        assert.equal(better({ zoom: 1.2, overlaps: 1 }, { zoom: 1, overlaps: 0 }), false);
        assert.equal(better({ zoom: 1.5, overlaps: 0 }, { zoom: 1.2, overlaps: 0 }), true);
    });

    it("puts a label by the end where its siblings' edges are apart", () => {
        assert.equal(labelEnd(1, 1), undefined);
        assert.equal(labelEnd(4, 1), 'target', 'fanning out: by the targets');
        assert.equal(labelEnd(1, 2), 'source', 'fanning in: by the sources');
    });
});
