// Issue 27 item 10: temporal formulas beyond one operator — AND / OR of two facts of a subject, `until` with a
// window, and nested operators (HalluVault's temporal benchmark: Globally(Finally), Next(Globally), …). Their
// truth at an anchor year, three-valued where the data is not complete (a year no interval covers is unknown,
// and only a formula whose value the data decides is asked), their parsing and their wording.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
    parseTemporal,
    temporalQuestion,
    truth,
    value,
    type TemporalFact,
    type TemporalSetup,
} from '../../../../src/core/families/rule/temporal.js';
import type { PredicateInfo } from '../../../../src/core/rules/translate.js';

const fact = (club: string, ...spans: [number, number][]): TemporalFact => ({
    args: ['P', club],
    intervals: spans.map(([begin, end]) => ({ begin, end, fact: { pred: 'played_for', args: ['P', club, `${club}${begin}`] } })),
});
const united = fact('United', [2003, 2009], [2021, 2022]);
const madrid = fact('Madrid', [2009, 2018]);

function setup(text: string, complete = true): TemporalSetup {
    const formula = parseTemporal(text, undefined);
    if (typeof formula === 'string') throw new Error(formula);
    return {
        op: formula.op,
        window: [0, 2],
        formula,
        during: 2,
        complete,
        begin: 'begin',
        end: 'end',
        relation: 'Spell',
        keep: [true, true, false],
        named: ['player', 'club'],
    };
}

describe('temporal formulas: parsing', () => {
    it('reads one operator, a chain of nested operators with windows, and the binary operators', () => {
        assert.deepEqual(parseTemporal('at', undefined), { kind: 'chain', ops: [], op: 'at' });
        assert.deepEqual(parseTemporal('globally', undefined), {
            kind: 'chain',
            ops: [{ op: 'globally', window: [0, 2] }],
            op: 'globally',
        });
        // `within` gives the window of an operator written without one.
        assert.deepEqual(parseTemporal('finally', [1, 3]), {
            kind: 'chain',
            ops: [{ op: 'finally', window: [1, 3] }],
            op: 'finally',
        });
        assert.deepEqual(parseTemporal('finally [0, 3] globally[0,2]', undefined), {
            kind: 'chain',
            ops: [
                { op: 'finally', window: [0, 3] },
                { op: 'globally', window: [0, 2] },
            ],
            op: 'finally globally',
        });
        assert.deepEqual(parseTemporal('next globally [0, 1]', undefined), {
            kind: 'chain',
            ops: [{ op: 'next' }, { op: 'globally', window: [0, 1] }],
            op: 'next globally',
        });
        assert.deepEqual(parseTemporal('and', undefined), { kind: 'and', op: 'and' });
        assert.deepEqual(parseTemporal('or', undefined), { kind: 'or', op: 'or' });
        assert.deepEqual(parseTemporal('until', undefined), { kind: 'until', op: 'until' });
        assert.deepEqual(parseTemporal('until [0, 4]', undefined), { kind: 'until', window: [0, 4], op: 'until' });
    });

    it('says what is wrong, with the syntax', () => {
        for (const [text, says] of [
            ['sometimes', /'sometimes' is not a temporal operator/],
            ['globally [3, 1]', /a window \[a, b\] needs whole numbers a <= b/],
            ['globally [0, 2', /a window \[a, b\] needs whole numbers a <= b/],
            ['at next', /'at' stands alone/],
            ['next and', /'and' combines the fact with another fact of the subject: write it alone/],
            ['until [0, 2] globally', /'until' combines the fact with another fact of the subject: write it alone/],
            ['', /temporal is a formula/],
        ] as const) {
            const got = parseTemporal(text, undefined);
            assert.equal(typeof got, 'string', text);
            assert.match(got as string, says, text);
            assert.match(got as string, /e\.g\. temporal "finally \[0, 3\] globally \[0, 2\]"/, text);
        }
    });
});

describe('temporal formulas: truth at an anchor year', () => {
    it('and / or of two facts of the subject at a year', () => {
        assert.deepEqual(
            [2008, 2009, 2010].map(y => truth(setup('and'), united, y, madrid)),
            [false, true, false],
        );
        assert.deepEqual(
            [2008, 2019, 2021].map(y => truth(setup('or'), united, y, madrid)),
            [true, false, true],
        );
    });

    it('until with a window: the second fact within [Y + a, Y + b], the first every year before it', () => {
        assert.equal(truth(setup('until [0, 3]'), united, 2005, madrid), false); // Madrid from 2009 = 2005 + 4
        assert.equal(truth(setup('until [0, 4]'), united, 2005, madrid), true);
        assert.equal(truth(setup('until [4, 5]'), united, 2003, madrid), false); // Madrid only from 2009 = 2003 + 6
        assert.equal(truth(setup('until [6, 8]'), united, 2003, madrid), true); // United 2003..2008, then Madrid
        assert.equal(truth(setup('until'), united, 2005, madrid), true); // no window: unbounded, as before
    });

    it('nested operators compose: finally globally, next globally, globally finally', () => {
        const fg = setup('finally [0, 3] globally [0, 2]');
        assert.equal(truth(fg, madrid, 2016), true); // 2016..2018 all covered
        assert.equal(truth(fg, madrid, 2017), false); // from 2017..2020, no three covered years in a row
        const xg = setup('next globally [0, 2]');
        assert.equal(truth(xg, madrid, 2015), true); // 2016..2018
        assert.equal(truth(xg, madrid, 2016), false); // 2017..2019
        const gf = setup('globally [0, 2] finally [0, 1]');
        assert.equal(truth(gf, united, 2007), true); // 2007..2009 each with 2007..2010 covered within a year
        assert.equal(truth(gf, united, 2009), false); // 2010: neither 2010 nor 2011
    });

    it('three-valued on incomplete data: a year no interval covers is unknown, and only decided formulas are asked', () => {
        const open = (t: string) => setup(t, false);
        assert.equal(value(open('and'), united, 2009, madrid), 1);
        assert.equal(value(open('and'), united, 2010, madrid), 0.5); // United's 2010 is unknown, not false
        assert.equal(value(open('or'), united, 2010, madrid), 1); // Madrid 2010 decides it
        assert.equal(value(open('or'), united, 2019, madrid), 0.5);
        assert.equal(value(open('globally [0, 2]'), madrid, 2017), 0.5);
        assert.equal(value(open('until [0, 3]'), united, 2005, madrid), 0.5); // Madrid may have started earlier than the data says
        assert.equal(value(setup('until [0, 3]'), united, 2005, madrid), 0); // complete: certainly not
    });
});

describe('temporal formulas: questions', () => {
    const info = {
        name: 'played_for',
        params: [
            { name: 'p', type: 'Player' },
            { name: 'c', type: 'Club' },
            { name: 's', type: 'Spell' },
        ],
        phrase: '{p} played for {c}',
    } as unknown as PredicateInfo;
    // A "random" that always picks the first candidate (the earliest anchor year).
    const first = () => 0;
    it('words a nested formula from the outside in, the inner operators counted from "that year"', () => {
        const q = temporalQuestion(setup('finally [0, 3] globally [0, 2]'), info, madrid, [madrid, united], first)!;
        assert.equal(
            q.basic,
            `Is it true that in at least one year from ${q.year} to ${q.year + 3}, in every year from that year to 2 years later, P played for Madrid?`,
        );
        assert.equal(
            q.negated,
            `It is not true that in at least one year from ${q.year} to ${q.year + 3}, in every year from that year to 2 years later, P played for Madrid. Please judge the truth of this statement.`,
        );
        const x = temporalQuestion(setup('next globally [1, 2]'), info, madrid, [madrid], first)!;
        assert.equal(
            x.basic,
            `Is it true that in the year after ${x.year}, in every year from 1 year later to 2 years later, P played for Madrid?`,
        );
    });

    it('words and / or / until with a window, naming the other fact', () => {
        const and = temporalQuestion(setup('and'), info, united, [united, madrid], first)!;
        assert.equal(and.basic, `Is it true that in ${and.year}, P played for United and P played for Madrid?`);
        assert.equal(and.other, madrid);
        const or = temporalQuestion(setup('or'), info, united, [united, madrid], first)!;
        assert.equal(or.basic, `Is it true that in ${or.year}, P played for United or P played for Madrid (or both)?`);
        const until = temporalQuestion(setup('until [0, 4]'), info, united, [united, madrid], first)!;
        assert.equal(
            until.basic,
            `Is it true that from ${until.year}, P played for United every year until a year from ${until.year} to ${until.year + 4} in which P played for Madrid?`,
        );
        assert.equal(until.gold, truth(setup('until [0, 4]'), united, until.year, madrid) ? 'yes' : 'no');
    });

    it('on incomplete data asks only formulas the data decides', () => {
        for (const text of ['and', 'or', 'until [0, 3]', 'finally [0, 3] globally [0, 2]', 'next globally [0, 1]']) {
            const s = setup(text, false);
            for (let seed = 0; seed < 20; seed++) {
                let k = seed;
                const q = temporalQuestion(s, info, united, [united, madrid], () => (k = (k * 9301 + 49297) % 233280) / 233280);
                if (!q) continue;
                assert.notEqual(value(s, united, q.year, q.other), 0.5, `${text} at ${q.year}`);
            }
        }
    });
});

describe("until with no window, asked after the other fact's last year", () => {
    it('is false on complete data and unknown on incomplete data (never a "no" the data cannot back)', () => {
        const milan = fact('Milan', [2010, 2012], [2020, 2023]);
        const manchester = fact('Manchester', [2016, 2018]);
        assert.equal(value(setup('until'), milan, 2021, manchester), 0);
        assert.equal(value(setup('until', false), milan, 2021, manchester), 0.5);
    });
});
