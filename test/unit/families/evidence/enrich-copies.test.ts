// Issue 38 item 3: ReEval's two enriched copies per seed (§3.2), one built from passages retrieved for the question,
// one from passages retrieved for the evidence (the supporting sentence); a seed counts as right only when both
// copies are answered right (Tables 3–4).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { computeMetrics } from '../../../../src/core/verify/metrics.js';
import { capabilityOf } from '../../../../src/core/probes/registry.js';
import { generateQuestions } from '../../../../src/core/probes/index.js';
import type { Question } from '../../../../src/core/probes/question.js';
import type { Verdict } from '../../../../src/core/verify/types.js';
import { world } from '../../../fixtures/probes/world.js';

describe('both enriched copies (issue 38 item 3)', () => {
    it('enrich_copies both asks an evidence-focused and a question-focused copy per seed', async () => {
        const related =
            'The festival in Cannes awarded a prize to a documentary about whales.\n\nThe movie Avatar was filmed in New Zealand with a large crew.';
        const w = await world(
            `source m csv "m.csv"
relation Movie from m { title: text  director: text  other: text  key (title) }
probe p evidence about Movie {
    question "Which movie was filmed by {director}?"
    answer title
    passage "{director} directed the movie {title}, which won a prize at the festival in Cannes."
    perturb [enrich]
    enrich_from other
    enrich_copies both
}
`,
            { 'm.csv': `title,director,other\nTitanic,James Cameron,"${related}"\n` },
        );
        try {
            assert.deepEqual(
                w.diagnostics.filter(d => d.severity === 'error'),
                [],
            );
            const qs = [...generateQuestions(w.model, w.data).questions].filter(q => q.phrasing === 'enrich');
            assert.deepEqual(qs.map(q => q.evidence!.enrichedFor).sort(), ['evidence', 'question']);
            const byFor = Object.fromEntries(qs.map(q => [q.evidence!.enrichedFor!, q.evidence!.passage]));
            assert.match(byFor['question']!, /filmed in New Zealand/);
            assert.match(byFor['evidence']!, /festival in Cannes awarded/);
            assert.notEqual(qs[0]!.id, qs[1]!.id);
        } finally {
            w.dispose();
        }
    });

    it('a seed counts as right over seeds only when both enriched copies are answered right', () => {
        const q = (kind: string, e: number, copy?: string): Question =>
            ({
                id: `${kind}-${e}-${copy ?? ''}`,
                probe: 'p',
                kind: 'evidence',
                phrasing: kind,
                variant: 'zero_shot',
                question: `q${e}`,
                messages: [],
                gold: { answer: `Old ${e}` },
                keywords: [],
                group: { id: `g${e}`, relation: 'evidence', role: kind },
                evidence: {
                    kind,
                    passage: 'passage',
                    original: `Old ${e}`,
                    aliases: [`Old ${e}`],
                    ...(copy ? { enrichedFor: copy } : {}),
                },
                entity: { relation: 'Item', key: [String(e)] },
                source: { spec: 's', probe: { file: 's', line: 1 }, constraints: [], rows: [] },
                path: { nodes: [], edges: [] },
            }) as unknown as Question;
        const v = (x: Question, right: boolean): Verdict => ({
            questionId: x.id,
            model: 'm',
            sample: 0,
            answer: 'answer',
            correct: right,
            rationale: true,
            rationaleText: '',
            hops: [],
        });
        // e0: both copies right; e1: the evidence copy wrong, the question copy (asked last) right.
        const cases: [Question, boolean][] = [
            [q('seed', 0), true],
            [q('seed', 1), true],
            [q('enrich', 0, 'evidence'), true],
            [q('enrich', 0, 'question'), true],
            [q('enrich', 1, 'evidence'), false],
            [q('enrich', 1, 'question'), true],
        ];
        const metrics = computeMetrics(
            cases.map(c => c[0]),
            cases.map(([x, r]) => v(x, r)),
        ).filter(g => g.mode === 'all');
        const s = capabilityOf('evidence', 'report')!.sections!(metrics).find(x => /over seeds/.test(x.title));
        assert.ok(s);
        const row = Object.fromEntries(s.columns.map((c, i) => [c, s.rows[0]![i]]));
        assert.equal(row['enrich seeds'], '2');
        assert.match(row['enrich accuracy']!, /^0\.50 /);
    });
});

describe('self- and cross-attack (issue 38 item 3, ReEval §4.1)', () => {
    const q = (kind: string, e: number): Question =>
        ({
            id: `${kind}-${e}`,
            probe: 'p',
            kind: 'evidence',
            phrasing: kind,
            variant: 'zero_shot',
            question: `q${e}`,
            messages: [],
            gold: { answer: kind === 'swap' ? `New ${e}` : `Old ${e}` },
            keywords: [],
            group: { id: `g${e}`, relation: 'evidence', role: kind },
            evidence: { kind, passage: 'passage', original: `Old ${e}`, aliases: [`Old ${e}`] },
            entity: { relation: 'Item', key: [String(e)] },
            source: { spec: 's', probe: { file: 's', line: 1 }, constraints: [], rows: [] },
            path: { nodes: [], edges: [] },
        }) as unknown as Question;
    const v = (x: Question, model: string, text: string): Verdict => ({
        questionId: x.id,
        model,
        sample: 0,
        answer: 'answer',
        correct: text === (x.gold as { answer: string }).answer,
        rationale: true,
        rationaleText: text,
        hops: [],
    });

    it('a model is attacked on the seeds a pivot model answered right, and on its own (the diagonal)', () => {
        // pivot: seeds right on e0, e1, e2; target: seeds right on e0 only. target's swaps: e0 followed, e1 stale, e2 followed.
        const seeds = [0, 1, 2].map(e => q('seed', e)),
            swaps = [0, 1, 2].map(e => q('swap', e));
        const verdicts = [
            ...seeds.map(x => v(x, 'pivot', (x.gold as { answer: string }).answer)),
            ...swaps.map(x => v(x, 'pivot', (x.gold as { answer: string }).answer)),
            v(seeds[0]!, 'target', 'Old 0'),
            v(seeds[1]!, 'target', 'x'),
            v(seeds[2]!, 'target', 'x'),
            v(swaps[0]!, 'target', 'New 0'),
            v(swaps[1]!, 'target', 'Old 1'),
            v(swaps[2]!, 'target', 'New 2'),
        ];
        const metrics = computeMetrics([...seeds, ...swaps], verdicts).filter(g => g.mode === 'all');
        const s = capabilityOf('evidence', 'report')!.sections!(metrics).find(x => /cross-attack/.test(x.title));
        assert.ok(
            s,
            capabilityOf('evidence', 'report')!.sections!(metrics)
                .map(x => x.title)
                .join(' | '),
        );
        const rows = s.rows.map(r => Object.fromEntries(s.columns.map((c, i) => [c, r[i]])));
        const cell = (pivot: string, model: string) => rows.find(r => r['pivot'] === pivot && r['model'] === model)!;
        // Cross-attack: target over the pivot's three seeds: followed 2 of 3, stale 1 of 3.
        assert.equal(cell('pivot', 'target')['seeds'], '3');
        assert.match(cell('pivot', 'target')['followed']!, /^0\.67 /);
        assert.match(cell('pivot', 'target')['stale']!, /^0\.33 /);
        // Self-attack (the diagonal): target over its own one seed.
        assert.equal(cell('target', 'target')['seeds'], '1');
        assert.match(cell('target', 'target')['followed']!, /^1\.00 /);
    });
});
