/**
 * The decline hint (src/core/reader/text.ts `hinted`): a cheap scan before the refusal and abstention expressions,
 * which goes on past "no" + a space and "hard" where no decline can hold them. It must find exactly what the one
 * expression that spells those contexts out finds — "no" only before information / data / record / details / way /
 * available, "hard" only as a word before a space — on texts made to sit on its edges.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { byFirstLetter, DECLINE_HINT_WORDS, hinted, notAnswering } from '../../../src/core/reader/text.js';

const words = DECLINE_HINT_WORDS.join('|');
const plain = byFirstLetter(DECLINE_HINT_WORDS, 'gi');
const spelled = new RegExp(
    words
        .replace(String.raw`|no\s|`, String.raw`|\bno\s+(?:information|data|record|details|way|available)|`)
        .replace('|hard|', String.raw`|\bhard\s|`),
    'i',
);

/** Texts made to sit on the edges of the two words: each hint word and its neighbours, glued and spaced. */
function edgeTexts(): string[] {
    const pieces = [
        'no',
        'No',
        'NO',
        'hard',
        'Hard',
        'Richard',
        'hardly',
        'piano',
        'casino',
        'ono',
        'xno',
        '_no',
        '9no',
        'not',
        'note',
        'nowhere',
        'beyond',
        'd',
        'ont',
        'way',
        'ways',
        'information',
        'data',
        'records',
        'details',
        'available',
        'sure',
        'ecline',
        ' ',
        '  ',
        '\u00a0',
        '\n',
        '.',
        ',',
        "'",
        '-',
        'to',
        'say',
        'there',
        'is',
        'I',
    ];
    let seed = 7;
    const next = (n: number) => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed % n;
    };
    const texts = [
        'hard',
        'hard ',
        ' hard ',
        'no way',
        'no  data',
        'hardont',
        'hard\u00a0to',
        'Richard Hard to say',
        'no\nway',
        'nonot',
        'no no way',
        'hardhard ',
        'There is no movie.',
        'There is no information about it.',
    ];
    for (let i = 0; i < 20_000; i++) {
        let t = '';
        for (let k = next(8) + 1; k > 0; k--) t += pieces[next(pieces.length)]! + (next(3) === 0 ? '' : ' ');
        texts.push(t);
    }
    return texts;
}

describe('the decline hint', () => {
    it('spells its two contexts out in the expression it is compared with', () => {
        assert.notEqual(spelled.source, words);
        assert.match(spelled.source, /\\bno\\s\+/);
        assert.match(spelled.source, /\\bhard\\s/);
    });

    it('finds what the spelled-out expression finds, on the edges of both words', () => {
        const texts = edgeTexts();
        let found = 0;
        for (const t of texts) {
            const want = spelled.test(t);
            if (want) found++;
            assert.equal(hinted(plain, t), want, JSON.stringify(t));
        }
        // both answers occur often among the texts
        assert.ok(found > 2000 && found < texts.length - 2000, `${found} of ${texts.length}`);
    });

    it('written by first letter, finds each match the plain alternation finds, where it finds it', () => {
        const alternation = new RegExp(words, 'gi');
        const hedged = [...DECLINE_HINT_WORDS, 'sure', 'suspect', 'certain', 'probably', String.raw`as\s+far`, 'recall'];
        const pairs = [
            [alternation, plain],
            [new RegExp(hedged.join('|'), 'gi'), byFirstLetter(hedged, 'gi')],
        ] as const;
        assert.notEqual(plain.source, words);
        let matches = 0;
        for (const t of [...edgeTexts(), "I can't say; as  far as I recall, it's unclear and I'm unsure — no data."])
            for (const [a, b] of pairs) {
                const want = [...t.matchAll(a)].map(m => `${m.index}:${m[0]}`);
                matches += want.length;
                assert.deepEqual(
                    [...t.matchAll(b)].map(m => `${m.index}:${m[0]}`),
                    want,
                    JSON.stringify(t),
                );
            }
        assert.ok(matches > 10_000, String(matches));
        assert.throws(() => byFirstLetter(['\\bno'], 'i'), /does not start with a letter/);
    });

    it('lets a decline that holds either word through, and not a sentence that only says them', () => {
        assert.equal(notAnswering('I have no way to verify that.')?.stance, 'abstain');
        assert.equal(notAnswering("It's hard to say who directed it.")?.stance, 'abstain');
        assert.equal(notAnswering('There is no information available about it.')?.stance, 'abstain');
        assert.equal(notAnswering('Richard Donner directed it; there is no sequel.'), undefined);
    });
});
