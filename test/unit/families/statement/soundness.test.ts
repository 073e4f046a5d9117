// Issue 27 items 1 and 2: a statement template that does not name its FD's whole left-hand side is a located
// error with a fix (through the real CLI), every negative is checked against every row its text could mean,
// and a negative whose value is an alias of the truth is discarded.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { generateQuestions } from '../../../../src/core/probes/index.js';
import { world } from '../../../fixtures/probes/world.js';
import type { Question } from '../../../../src/core/probes/question.js';
import { cliArgs } from '../../../support/cli-path.js';

const repo = path.resolve(import.meta.dirname, '..', '..', '..', '..');
const cli = (args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd: repo, encoding: 'utf8', timeout: 120_000 });

const KING_KONG =
    'title,year,director\nKing Kong,1933,Merian C. Cooper\nKing Kong,2005,Peter Jackson\nAvatar,2009,James Cameron\nHeat,1995,Michael Mann\n';
const movies = (statement: string) => `source m csv "m.csv"
relation Movie from m { title: text  year: int  director: text  key (title, year) }
fd Movie: title, year -> director as made
probe facts statement using made { statement "${statement}"  negatives 3  corrupt [tail, head] }
`;

/** No statement is both a negative and a true statement; returns the negatives. */
function noNegativeIsTrue(questions: readonly Question[]): Question[] {
    const yes = new Set(questions.filter(q => q.gold === 'yes').map(q => q.question));
    const neg = questions.filter(q => q.gold === 'no');
    for (const q of neg) assert.ok(!yes.has(q.question), `${q.question} is gold no and gold yes`);
    return neg;
}

describe('statement golds (issue 27)', () => {
    it("a template that leaves out part of the FD's left-hand side is a located error naming what to add (real CLI check)", async () => {
        const w = await world(movies('The director of {title} is {director}.'), { 'm.csv': KING_KONG });
        try {
            const r = cli(['check', path.join(w.dir, 'spec.probe'), '--format', 'json']);
            assert.equal(r.status, 1, r.stdout + r.stderr);
            const rows = JSON.parse(r.stdout) as { line: number; severity: string; code: string; message: string }[];
            const hit = rows.find(x => x.code === 'probe-statement-ambiguous');
            assert.ok(hit, r.stdout);
            assert.equal(hit.severity, 'error');
            assert.equal(hit.line, 4);
            assert.match(hit.message, /\{year\}/);
            assert.match(hit.message, /King Kong/, 'it shows a subject the text cannot tell apart');
            assert.equal([...generateQuestions(w.model, w.data).questions].length, 0, 'no questions with an ambiguous gold');
        } finally {
            w.dispose();
        }
    });

    it('naming the whole left-hand side is clean, and no negative is true of any row its text could mean', async () => {
        const w = await world(movies('The director of {title} ({year}) is {director}.'), { 'm.csv': KING_KONG });
        try {
            const g = generateQuestions(w.model, w.data);
            const questions = [...g.questions];
            assert.deepEqual(
                g.diagnostics.filter(p => p.severity === 'error'),
                [],
            );
            assert.ok(
                questions.some(q => q.gold === 'yes' && q.question === 'The director of King Kong (1933) is Merian C. Cooper.'),
            );
            noNegativeIsTrue(questions);
        } finally {
            w.dispose();
        }
    });

    it('a text that two rows render alike (a function hides the difference) never gives a negative true of either', async () => {
        // {lower(title)} names title, but "Heat" and "HEAT" read the same: a negative of one may be the other's truth.
        const csv =
            'title,director\nHeat,Michael Mann\nHEAT,Ridley Scott\nAvatar,James Cameron\nAlien,Ridley Scott\nBrazil,Terry Gilliam\n';
        const w = await world(
            `source m csv "m.csv"
relation Movie from m { title: text  director: text  key (title) }
fd Movie: title -> director as made
probe facts statement using made { statement "The director of {lower(title)} is {director}."  negatives 3  corrupt [tail, head] }
`,
            { 'm.csv': csv },
        );
        try {
            assert.ok(noNegativeIsTrue([...generateQuestions(w.model, w.data).questions]).length > 0);
        } finally {
            w.dispose();
        }
    });

    it('discards a negative whose value is an alias of the truth', async () => {
        const csv = 'name,club\nA,FC Barcelona\nB,Real Madrid\nC,Barcelona\nD,Sevilla\n';
        const w = await world(
            `source p csv "p.csv"
relation Player from p { name: text  club: text  key (name) }
fd Player: name -> club as at
aliases Player.club { strip("FC", "CF") }
probe clubs statement using at { statement "{name} plays for {club}."  negatives 3  corrupt [tail] }
`,
            { 'p.csv': csv },
        );
        try {
            const qs = [...generateQuestions(w.model, w.data).questions];
            const neg = qs.filter(q => q.gold === 'no').map(q => q.question);
            assert.ok(neg.length > 0);
            assert.ok(!neg.includes('A plays for Barcelona.'), neg.join('\n'));
            assert.ok(!neg.includes('C plays for FC Barcelona.'), neg.join('\n'));
        } finally {
            w.dispose();
        }
    });
});

describe('a statement probe asks each statement once (issue 25 item 9)', () => {
    const COUNTRIES =
        'name,capital\nThailand,Bangkok\nMexico,Mexico City\nFrance,Paris\nJapan,Tokyo\nPeru,Lima\nChile,Santiago\n';
    const spec = `source c csv "c.csv"
relation Country from c { name: text  capital: text  key (name) }
fd Country: name -> capital as capital_of
probe capitals statement using capital_of { statement "The capital of {name} is {capital}."  negatives 3  corrupt [tail, head] }
`;

    it('a head corruption of one country that says what a tail corruption of another says is made once', async () => {
        const w = await world(spec, { 'c.csv': COUNTRIES });
        try {
            for (const seed of [1, 2, 3, 4, 5]) {
                const questions = [...generateQuestions(w.model, w.data, { seed }).questions];
                const texts = questions.map(q => q.question);
                assert.deepEqual(
                    texts.filter((t, i) => texts.indexOf(t) !== i),
                    [],
                    `seed ${seed}: asked twice`,
                );
                assert.equal(new Set(questions.map(q => q.id)).size, questions.length);
                // Every country still gets its three negatives when the data has enough to make them.
                assert.equal(questions.filter(q => q.gold === 'no').length, 3 * 6, `seed ${seed}`);
            }
        } finally {
            w.dispose();
        }
    });
});
