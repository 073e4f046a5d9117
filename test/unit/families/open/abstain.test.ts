/**
 * Issue 41, Build 6 (task w47c): abstention in open answers, with answers written for this test (none is a corpus
 * answer). Each failed before its change:
 *   - an answer that declines and states nothing the data can judge as its own — only the given facts' words (set
 *     against or not), advice on what to check, hedged claims — is unsure, not passed or failed;
 *   - a hedged claim ("it may have been directed by X") is hedged: neither a support nor an invented fact.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { avatarPair } from './support.js';

const read = await avatarPair();

describe('issue 41: an answer that declines and states nothing of its own the data can judge is unsure', () => {
    it('a decline, the facts reported and doubted, a remark, then advice naming the pair: unsure', () => {
        const got = read(
            "I can't give you a reliable answer from what's provided. The facts list Avatar as directed by Sam Mendes, which seems wrong. Avatar was a landmark of 3D cinema. I'd recommend checking whether James Cameron directed Avatar.",
        );
        assert.equal(got.answer, 'unsure', JSON.stringify(got));
        assert.equal(got.correct, false);
    });
    it('a decline, then a claim the data supports as its own: an answer (passed)', () => {
        const got = read(
            "I can't give you a reliable answer from what's provided. From what I know, James Cameron directed Avatar.",
        );
        assert.equal(got.answer, 'yes', JSON.stringify(got));
        assert.equal(got.correct, true);
    });
    it('no decline: an answer of claims the data cannot judge is still an answer (failed, not unsure)', () => {
        const got = read('Avatar is a landmark of 3D cinema.');
        assert.equal(got.answer, 'yes', JSON.stringify(got));
        assert.equal(got.correct, false);
    });
});

describe('issue 41: a hedged claim is hedged, not invented', () => {
    it('"Avatar came out in 2009. I\'m not sure, but it may have been directed by Sam Mendes.": passed on 2009', () => {
        const got = read("Avatar came out in 2009. I'm not sure, but Avatar may have been directed by Sam Mendes.");
        assert.equal(got.correct, true, JSON.stringify(got));
        const hedged = got.claims?.find(c => c.text?.includes('Sam Mendes'));
        assert.ok(hedged?.hedged, JSON.stringify(got.claims));
    });
    it('a hedge or advice covers its own clause: "…, though I\'d recommend checking the details" hedges no claim', () => {
        const got = read("Avatar was directed by James Cameron in 2009, though I'd recommend checking the details.");
        assert.equal(got.correct, true, JSON.stringify(got));
        assert.ok(!got.claims?.find(c => c.text?.includes('James Cameron'))?.hedged, JSON.stringify(got.claims));
    });
    it('the same claim unhedged still fails the answer', () => {
        assert.equal(read('Avatar came out in 2009. Avatar was directed by Sam Mendes.').correct, false);
    });
});
