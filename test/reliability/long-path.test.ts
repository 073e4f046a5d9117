// Item 10 of issue 11: checking a long path's answer is linear in its hops (no hops × text-length scan).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanDomain, tokenize, type Domain } from '../../src/core/verify/domain.js';

/** A domain of `size` one-word values, counting the lookups a scan makes. */
function countingDomain(values: string[]): { domain: Domain; lookups: () => number } {
    let lookups = 0;
    const byFirst = new Map(values.map((v, row) => [v, { single: { key: v, value: v, row, tokens: 1 }, bySecond: new Map() }]));
    const get = byFirst.get.bind(byFirst);
    byFirst.get = (k: string) => {
        lookups++;
        return get(k);
    };
    const domain = {
        relation: 'R',
        attribute: 'a',
        file: 'f',
        lines: new Int32Array(values.length),
        numeric: false,
        byFirst,
        numbers: new Map(),
    } as unknown as Domain;
    return { domain, lookups: () => lookups };
}

test('scanning 2,000 small domains over a 2,000-hop answer does not look at every word for each', () => {
    const hops = 2000;
    // The answer to a path question names a value for every hop.
    const text = Array.from({ length: hops }, (_, i) => `value${i} leads to`).join(' ');
    const tokens = tokenize(text);
    let total = 0;
    for (let h = 0; h < hops; h++) {
        const { domain, lookups } = countingDomain([`value${h}`, `other${h}`, `third${h}`]);
        const hits = scanDomain(domain, text, tokens);
        assert.deepEqual(
            hits.map(x => x[2].key),
            [`value${h}`],
        );
        total += lookups();
    }
    // Linear: a few lookups per hop. A scan of every word for each hop would be hops × 3 × hops = 12 million.
    assert.ok(total <= hops * 3, `${total} lookups`);
});

test('leftmost-longest matches are the same as a word-by-word scan', () => {
    const values = ['new york', 'york', 'new', 'city'];
    type Entry = { key: string; value: string; row: number; tokens: number };
    type TemplateSlot = { single?: Entry; bySecond: Map<string, Entry[]> };
    const byFirst = new Map<string, TemplateSlot>();
    values.forEach((v, row) => {
        const [first, second] = v.split(' ');
        const slot: TemplateSlot = byFirst.get(first!) ?? { bySecond: new Map() };
        const entry = { key: v, value: v, row, tokens: v.split(' ').length };
        if (second) slot.bySecond.set(second, [entry]);
        else slot.single = entry;
        byFirst.set(first!, slot);
    });
    const domain = { byFirst, numbers: new Map(), numeric: false } as unknown as Domain;
    const text = 'new york city is not york new';
    assert.deepEqual(
        scanDomain(domain, text).map(([a, b, e]) => [a, b, e.key]),
        [
            [0, 8, 'new york'],
            [9, 13, 'city'],
            [21, 25, 'york'],
            [26, 29, 'new'],
        ],
    );
});
