// Issue 27 acceptance: on 1,000 random small relations with composite keys, duplicate names, aliases and FD
// violations, every generated negative is false and every positive true under the data — for statements, rule
// questions and multiple-choice options. The oracle below reads the CSV rows itself (its own alias rule), not
// the engine's tables.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { loadSpec } from '../../../src/core/spec/load.js';
import { loadData } from '../../../src/core/data/index.js';
import { generateQuestions } from '../../../src/core/probes/index.js';
import { KEY_SEPARATOR } from '../../../src/core/rules/ir.js';

const SPEC = `source p csv "p.csv"
source c csv "c.csv"
relation Player from p label "player" { name: text  tag: text  club: text  city: text  key (name, tag) }
relation Club from c label "club" { name: text  city: text  key (name) }
fd Player: name, tag -> club, city as facts
fd Player: name -> club as one_club
fd Club: name -> city as club_city
fk Player.club -> Club.name as plays_for
aliases Player.club { strip("FC") }
rule not_at(p: Player, k: Club) :- plays_for(p, h), h.city = k.city, not plays_for(p, k)
probe stated statement using facts {
    statement ["{name} ({tag}) plays for {club}.", "{name} ({tag}) comes from {city}."]
    negatives 3  corrupt [tail, head, relation]
}
probe by_name statement using one_club { statement "{name} plays for {club}."  negatives 2  corrupt [tail, head] }
probe options choice using facts {
    stem "What is the false option about {name} ({tag})?"
    option club "Plays for {club}."
    option city "Comes from {city}."
}
probe away rule using not_at { per_entity 20  basic "Is it true that {p} does not play for {k}?"  negated "Is it true that {p} plays for {k}?" }
`;

const CLUBS = ['FC A', 'A', 'B', 'FC B', 'C'];
// Cities overlap club names, so a relation corruption ("comes from B") can meet a true fact.
const CITIES = ['Rome', 'Milan', 'B'];

interface Row {
    name: string;
    tag: string;
    club: string;
    city: string;
}

/** The oracle's alias rule: a club is the same club with or without the word "FC". */
const club = (v: string) =>
    v
        .split(' ')
        .filter(w => w !== 'FC')
        .join(' ');
const sameClub = (a: string, b: string) => club(a) === club(b);

const rowsArb = fc.uniqueArray(
    fc.record({
        name: fc.constantFrom('X', 'Y', 'Z'),
        tag: fc.constantFrom('1', '2'),
        club: fc.constantFrom(...CLUBS),
        city: fc.constantFrom(...CITIES),
    }),
    { minLength: 2, maxLength: 6, selector: r => `${r.name}/${r.tag}` },
);
const clubCities = fc.tuple(...CLUBS.map(() => fc.constantFrom('Rome', 'Milan')));

function trueTexts(rows: Row[]): Set<string> {
    const out = new Set<string>();
    for (const r of rows) {
        for (const v of CLUBS.filter(v => sameClub(v, r.club))) {
            out.add(`${r.name} (${r.tag}) plays for ${v}.`);
            // "X plays for A" is true when some row of X plays for A.
            out.add(`${r.name} plays for ${v}.`);
        }
        out.add(`${r.name} (${r.tag}) comes from ${r.city}.`);
    }
    return out;
}

describe('golds on random data (issue 27 property)', () => {
    it('1,000 random relations: every negative false and every positive true, for statements, rules and choice options', async () => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'hp-golds-'));
        writeFileSync(path.join(dir, 'spec.probe'), SPEC);
        const counts = { statementNo: 0, statementYes: 0, ruleYes: 0, choice: 0 };
        try {
            // The spec is the same in every run (only its CSV files change): loaded once, its data read in each run.
            const { model } = await loadSpec(path.join(dir, 'spec.probe'));
            await fc.assert(
                fc.asyncProperty(rowsArb, clubCities, async (rows, cities) => {
                    writeFileSync(
                        path.join(dir, 'p.csv'),
                        'name,tag,club,city\n' + rows.map(r => `${r.name},${r.tag},${r.club},${r.city}`).join('\n') + '\n',
                    );
                    writeFileSync(
                        path.join(dir, 'c.csv'),
                        'name,city\n' + CLUBS.map((c, i) => `${c},${cities[i]}`).join('\n') + '\n',
                    );
                    const data = await loadData(model);
                    const truth = trueTexts(rows);
                    const where = `\n${JSON.stringify(rows)} ${JSON.stringify(cities)}`;
                    for (const q of generateQuestions(model, data).questions) {
                        if (q.kind === 'statement') {
                            if (q.gold === 'yes') {
                                counts.statementYes++;
                                assert.ok(truth.has(q.question), `positive not true: ${q.question}${where}`);
                            } else {
                                counts.statementNo++;
                                assert.ok(!truth.has(q.question), `negative true: ${q.question}${where}`);
                            }
                        } else if (q.kind === 'choice') {
                            counts.choice++;
                            const [name, tag] = q.entity.key;
                            const row = rows.find(r => r.name === name && r.tag === tag)!;
                            const holds = (text: string) =>
                                CLUBS.some(v => sameClub(v, row.club) && text === `Plays for ${v}.`) ||
                                text === `Comes from ${row.city}.`;
                            q.options!.forEach((text, i) =>
                                assert.equal(
                                    holds(text),
                                    q.gold !== i + 1,
                                    `option ${i + 1} "${text}" (gold ${String(q.gold)})${where}`,
                                ),
                            );
                        } else if (q.kind === 'rule' && q.gold === 'yes' && q.phrasing === 'basic') {
                            // not_at(p, k): no row of p's name plays for k (or an alias of k), and k is in p's club's city.
                            counts.ruleYes++;
                            const name = String(q.rule!.fact.args[0]).split(KEY_SEPARATOR)[0]!;
                            const k = String(q.rule!.fact.args[1]);
                            const mine = rows.filter(r => r.name === name);
                            assert.ok(
                                mine.length > 0 && mine.every(r => !sameClub(r.club, k)),
                                `${q.question} but ${JSON.stringify(mine)}${where}`,
                            );
                        } else if (q.kind === 'rule' && q.phrasing === 'negated') {
                            assert.equal(q.gold, 'no');
                        }
                    }
                }),
                { numRuns: 1000, seed: 27 },
            );
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
        // The property was exercised, not vacuous.
        for (const [k, n] of Object.entries(counts)) assert.ok(n > 200, `${k}: ${n}`);
    });
});
