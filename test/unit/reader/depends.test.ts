/**
 * An answer that says its verdict depends on a case ("it depends on which director") commits to no single verdict:
 * a marked conclusion under a condition after it ("If you mean the first, the answer is yes; for the other it's
 * no") is one of its cases, not the answer's commitment — unreadable (LABEL-SCHEMA: no marked overall conclusion).
 * A conclusion with no condition, or a condition's consequent in an answer that does not say it depends, still
 * decides. Sentences written for this test (none is a corpus answer).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readYesNo } from '../../../src/core/reader/index.js';

describe('"it depends": a conclusion under a condition is one case', () => {
    it('cases of opposite verdicts after "it depends on which …" are unreadable', () => {
        const r = readYesNo(
            '**Answer: it depends on which film you mean.**\n\nThere are two Solaris films.\n\n' +
                'If you mean the 1972 one, the answer is **yes**; for the 2002 remake it is **no**.',
        );
        assert.equal(r.label, 'unparseable');
    });

    it('a conclusion with no condition still decides, as does a consequent where nothing is said to depend', () => {
        assert.equal(
            readYesNo('It depends on how strictly you read it, but the answer is yes: Tarkovsky directed it.').label,
            'yes',
        );
        assert.equal(
            readYesNo('Tarkovsky made it in 1972. If we count that version, then yes, he directed Solaris.').label,
            'yes',
        );
    });
});
