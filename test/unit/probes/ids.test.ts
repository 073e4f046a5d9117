/**
 * A question id is 16 hex digits of sha256 over its defining parts joined by two unit separators, the key's values by
 * one (stored answers and the natural corpus name questions by it). Generation joins the row-independent parts once
 * (idPrefix, idSuffix) and the key per question (idOf): the same text, so the same id, whatever the key.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { idOf, idPrefix, idSuffix, questionId, type IdParts } from '../../../src/core/probes/ids.js';

/** The id as its definition states it, computed apart from ids.ts. */
function defined(p: IdParts): string {
    const text = [p.probe, p.kind, p.template, p.key.join('\u001f'), p.variant, p.phrasing].join('\u001f\u001f');
    return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

const KEYS: string[][] = [[], [''], ['Avatar'], ['Avatar', '2009'], ['Léon', '1994', '#2'], ['a\u001fb', '', 'c']];

describe('question ids', () => {
    it('joined once per template and per phrasing, they are the ids of the whole defining text', () => {
        const base = {
            probe: 'mc',
            kind: 'choice',
            template: "What's the inaccurate option about {title}?\nThe director is {director}.",
            variant: 'zero_shot',
            phrasing: 'stem-1',
        };
        const prefix = idPrefix(base.probe, base.kind, base.template);
        const suffix = idSuffix(base.variant, base.phrasing);
        for (const key of KEYS) {
            const parts = { ...base, key };
            assert.equal(questionId(parts), defined(parts), `questionId, key ${JSON.stringify(key)}`);
            assert.equal(idOf(prefix, key, suffix), defined(parts), `idOf, key ${JSON.stringify(key)}`);
        }
    });
});
