// Temporal operators over interval facts (temporal.ts): the truth of at / next / globally / finally / until at
// an anchor year, years read from ints and ISO dates, and open intervals left out (never asked about).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
    intervalFacts,
    truth,
    yearOf,
    type TemporalFact,
    type TemporalSetup,
} from '../../../../src/core/families/rule/temporal.js';
import { diagnose } from '../../language/support.js';

const setup = (op: TemporalSetup['op'], window: [number, number] = [0, 2]): TemporalSetup => ({
    op,
    during: 2,
    window,
    complete: true,
    begin: 'begin',
    end: 'end',
    relation: 'Spell',
    keep: [true, true, false],
    named: ['player', 'club'],
});
const fact = (club: string, ...spans: [number, number][]): TemporalFact => ({
    args: ['P', club],
    intervals: spans.map(([begin, end]) => ({ begin, end, fact: { pred: 'r', args: ['P', club, `${club}${begin}`] } })),
});

describe('temporal operators', () => {
    const united = fact('United', [2003, 2009], [2021, 2022]);
    const madrid = fact('Madrid', [2009, 2018]);
    it('at and next read the union of the intervals, ends included', () => {
        assert.deepEqual(
            [2002, 2003, 2009, 2010, 2021].map(y => truth(setup('at'), united, y)),
            [false, true, true, false, true],
        );
        assert.equal(truth(setup('next'), united, 2009), false);
        assert.equal(truth(setup('next'), united, 2020), true);
    });
    it('globally needs every year of the window, finally one', () => {
        assert.equal(truth(setup('globally'), united, 2007), true); // 2007..2009
        assert.equal(truth(setup('globally'), united, 2008), false); // 2010 uncovered
        assert.equal(truth(setup('finally', [1, 3]), united, 2017), false); // 2018..2020: none covered
        assert.equal(truth(setup('finally', [1, 3]), united, 2009), false); // 2010..2012
        assert.equal(truth(setup('finally', [1, 3]), united, 2018), true); // 2021 in window
    });
    it('until: the first holds every year until the second starts (strong until)', () => {
        assert.equal(truth(setup('until'), united, 2005, madrid), true); // United 2005..2008, Madrid from 2009
        assert.equal(truth(setup('until'), madrid, 2010, united), false); // Madrid ends 2018, United only from 2021: a gap
        assert.equal(truth(setup('until'), madrid, 2016, united), false); // 2019: neither
        assert.equal(truth(setup('until'), united, 2010, madrid), true); // Madrid holds at 2010 already
        assert.equal(truth(setup('until'), united, 2019, madrid), false); // Madrid never again
    });
    it('reads years from whole numbers and ISO dates, nothing else', () => {
        assert.deepEqual(
            [2004, '2004', '2004-07-01', '2004-07', 'July 2004', 2004.5, ''].map(v => yearOf(v)),
            [2004, 2004, 2004, 2004, undefined, undefined, undefined],
        );
    });
    it('groups derived facts by their arguments without the interval row, and drops a fact with an open interval', () => {
        const base = new Map([
            [
                'Spell.begin',
                [
                    ['a', 2003],
                    ['b', 2021],
                    ['c', 2023],
                ],
            ],
            [
                'Spell.end',
                [
                    ['a', 2009],
                    ['b', '2022-05-01'],
                ],
            ],
        ]);
        const facts = [
            { pred: 'r', args: ['P', 'United', 'a'] },
            { pred: 'r', args: ['P', 'United', 'b'] },
            { pred: 'r', args: ['P', 'Nassr', 'c'] },
        ];
        const got = intervalFacts(facts, setup('at'), base);
        assert.deepEqual(
            got.map(f => [f.args, f.intervals.map(i => [i.begin, i.end])]),
            [
                [
                    ['P', 'United'],
                    [
                        [2003, 2009],
                        [2021, 2022],
                    ],
                ],
            ],
        );
    });
});

describe('during in the language', () => {
    const spec = (during: string, end = 'int') => `source spells csv "s.csv"
relation Spell from spells { player: text  club: text  begin: int  end: ${end}  note: bool  key (player, club, begin)  ${during} }
`;
    it('a relation with one during over two year attributes (int or date) is clean', async () => {
        assert.deepEqual(
            (await diagnose(spec('during (begin, end)'))).map(d => d.code),
            [],
        );
        assert.deepEqual(
            (await diagnose(spec('during (begin, end)', 'date'))).map(d => d.code),
            [],
        );
    });
    for (const [name, during, code] of [
        ['twice', 'during (begin, end) during (begin, end)', 'during-duplicate'],
        ['one attribute twice', 'during (begin, begin)', 'during-attributes'],
        ['a non-year attribute', 'during (begin, note)', 'during-attributes'],
        ['an unknown attribute', 'during (begin, finish)', 'unresolved-name'],
    ] as const) {
        it(`rejects ${name}`, async () => {
            assert.ok(
                (await diagnose(spec(during))).some(d => d.code === code),
                code,
            );
        });
    }
});
