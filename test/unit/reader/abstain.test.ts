/**
 * Issue 41, cause 6 (closed families): abstaining is unsure in every closed family, through each family's own
 * `parse` — a refusal or "I don't know" commits to nothing, wherever it stands after boilerplate; a verdict after a
 * refusal is a hedged verdict, not an abstention. The verdict's `read` carries every span weighed (JSONL shows it).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { coreOf } from '../../../src/core/probes/registry.js';
import type { Question } from '../../../src/core/probes/question.js';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { data, question, spec } from '../../fixtures/verify/world.js';

const CLOSED = ['binary', 'path', 'knows', 'rule', 'statement', 'choice'];
const UNSURE = new Set(['unsure', 'dont_know']);
const ABSTAIN = [
    "I don't know.",
    "Sure! I'd be happy to help. Unfortunately, I don't have enough information to answer that.",
    "As an AI language model, I cannot browse the internet, so I can't say.",
    "I'm sorry, but I can't help with that.",
    "Hmm, that is a good question. I'm not sure.",
];
const q = (kind: string) =>
    ({
        id: 'q',
        kind,
        question: 'Is there a movie, released in 2009, directed by James Cameron?',
        options: ['Avatar was released in 2009.', 'Avatar was directed by James Cameron.', 'Avatar stars Tom Hanks.'],
    }) as unknown as Question;

describe('issue 41 cause 6: abstention is unsure in every closed family', () => {
    for (const kind of CLOSED) {
        for (const text of ABSTAIN) {
            it(`${kind}: ${JSON.stringify(text.slice(0, 50))} → unsure`, () => {
                const p = coreOf(kind).parse(text, q(kind));
                assert.ok(UNSURE.has(p.answer), `${kind} read ${p.answer} (${p.why})`);
                assert.ok(p.stance === 'abstain' || p.stance === 'refuse', `stance ${p.stance}`);
            });
        }
        it(`${kind}: a verdict after a refusal is a hedged verdict`, () => {
            const text =
                kind === 'choice'
                    ? 'As an AI I cannot browse, but the answer is Option 2.'
                    : 'As an AI I cannot browse, but the answer is no.';
            const p = coreOf(kind).parse(text, q(kind));
            assert.ok(!UNSURE.has(p.answer), `${kind} read ${p.answer} (${p.why})`);
            if (kind !== 'choice') assert.equal(p.stance, 'hedged');
        });
    }

    it('the verdict carries every span the reader weighed (the JSONL report shows `verdict.read.spans`)', () => {
        const text = 'Yes, it is true. Avatar came out in 2009. Therefore, the answer is no.';
        const v = verify(
            question('Is there a movie, released in 2009, directed by James Cameron?', []),
            text,
            createVerifyContext(spec, data),
            'm',
        );
        assert.equal(v.answer, 'no');
        assert.deepEqual(
            v.read?.spans?.map(s => [s.role, s.says, s.text]),
            [
                ['opening', 'pos', 'Yes'],
                ['conclusion', 'neg', 'no'],
            ],
        );
    });
});
