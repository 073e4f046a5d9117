// ReEval's figures over seeds (issue 24 items 5 and 7): a swapped case counts only where the model answered the seed
// right, an enriched one only where it also answered wrong closed-book; the rest are counted, not dropped. The
// memory × evidence table (closed-book answer × what the swapped case did) and accuracy by the supporting
// sentence's position among the enriched passages.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { computeMetrics } from '../../../../src/core/verify/metrics.js';
import { capabilityOf } from '../../../../src/core/probes/registry.js';
import type { Question } from '../../../../src/core/probes/question.js';
import type { Verdict } from '../../../../src/core/verify/types.js';

type Kind = 'seed' | 'swap' | 'enrich' | 'closed';

function question(kind: Kind, e: number, position?: number): Question {
    const gold = kind === 'swap' ? `New ${e}` : `Old ${e}`;
    return {
        id: `${kind}-${e}`,
        probe: 'p',
        kind: 'evidence',
        phrasing: kind,
        variant: 'zero_shot',
        question: `q${e}`,
        messages: [],
        gold: { answer: gold },
        keywords: [],
        group: { id: `g${e}`, relation: 'evidence', role: kind },
        evidence: {
            kind,
            passage: kind === 'closed' ? '' : 'passage',
            original: `Old ${e}`,
            aliases: [`Old ${e}`],
            ...(position ? { position } : {}),
        },
        entity: { relation: 'Item', key: [String(e)] },
        source: { spec: 's', probe: { file: 's', line: 1 }, constraints: [], rows: [] },
        path: { nodes: [], edges: [] },
    } as unknown as Question;
}

function verdict(q: Question, text: string): Verdict {
    const gold = typeof q.gold === 'object' ? q.gold.answer : '';
    return {
        questionId: q.id,
        model: 'm',
        sample: 0,
        answer: 'answer',
        correct: text === gold,
        rationale: true,
        rationaleText: text,
        hops: [],
    };
}

describe('evidence figures over seeds', () => {
    // Five items: seed right for e0–e3, wrong for e4; closed book right for e2, e3 only.
    // Swaps: e0 followed, e1 other, e2 stale, e3 followed, e4 followed (not a seed: not counted).
    // Enriched: e0 right (position 1), e1 wrong (2), e2 right (1), e3 right (2), e4 right (3).
    const answers: Record<Kind, string[]> = {
        seed: ['Old 0', 'Old 1', 'Old 2', 'Old 3', 'nothing'],
        closed: ['x', 'x', 'Old 2', 'Old 3', 'x'],
        swap: ['New 0', 'something', 'Old 2', 'New 3', 'New 4'],
        enrich: ['Old 0', 'x', 'Old 2', 'Old 3', 'Old 4'],
    };
    const positions = [1, 2, 1, 2, 3];
    const qs: Question[] = [],
        vs: Verdict[] = [];
    for (const kind of ['seed', 'swap', 'enrich', 'closed'] as Kind[]) {
        for (let e = 0; e < 5; e++) {
            const q = question(kind, e, kind === 'enrich' ? positions[e] : undefined);
            qs.push(q);
            vs.push(verdict(q, answers[kind][e]!));
        }
    }
    const metrics = computeMetrics(qs, vs).filter(g => g.mode === 'all');
    const sections = capabilityOf('evidence', 'report')!.sections!(metrics);
    const section = (title: RegExp) => sections.find(s => title.test(s.title));

    it('counts swaps and enriched cases over seeds, and the rest', () => {
        const s = section(/over seeds/);
        assert.ok(s, sections.map(x => x.title).join(' | '));
        const row = Object.fromEntries(s.columns.map((c, i) => [c, s.rows[0]![i]]));
        assert.equal(row['seeds'], '4 of 5');
        assert.equal(row['swaps over seeds'], '4');
        assert.match(row['followed']!, /^0\.50 /);
        assert.match(row['stale']!, /^0\.25 /);
        assert.match(row['other']!, /^0\.25 /);
        // Enrich seeds: right with the passage and wrong closed book: e0, e1 → one of two right.
        assert.equal(row['enrich seeds'], '2');
        assert.match(row['enrich accuracy']!, /^0\.50 /);
        assert.equal(row['not seeds'], '1');
    });

    it('crosses memory (closed book) with what the swapped case did, over seeds', () => {
        const s = section(/memory × evidence/);
        assert.ok(s);
        const cells = s.rows.map(r => r.slice(-4));
        // memory right: e2 stale, e3 followed; memory wrong: e0 followed, e1 other.
        assert.deepEqual(cells, [
            ['right', '1', '1', '0'],
            ['wrong', '1', '0', '1'],
        ]);
    });

    it("gives accuracy by the supporting sentence's position", () => {
        const s = section(/position/);
        assert.ok(s);
        assert.deepEqual(
            s.rows.map(r => r.slice(-3).map(c => c.replace(/ \[.*$/, ''))),
            [
                ['1', '2', '1.00'],
                ['2', '2', '0.50'],
                ['3', '1', '1.00'],
            ],
        );
    });
});
