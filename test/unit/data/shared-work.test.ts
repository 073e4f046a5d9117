/**
 * Relations over one source share their columns' arrays, and the work done on those columns (issue 39, the first
 * diagnostics after a window reload): a distinct projection, a grouping, a key, FD or fk check over the same
 * columns is made once, whichever relation asks, and each relation still gets its own diagnostics.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkSpec } from '../../../src/core/spec/check.js';
import { checkFd, checkFk, checkKey } from '../../../src/core/data/checks.js';
import { columnCodes, groupCodes } from '../../../src/core/data/group.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-shared-work-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

// Heat (1995) twice with two directors (a key and an FD violation); no movie's year is a birth year (the fk dangles).
const CSV = `title,year,director,birth_year
Heat,1995,Michael Mann,1943
Heat,1995,Someone Else,1950
Alien,1979,Ridley Scott,
Avatar,2009,James Cameron,1954
`;
const block = (i: number) => `
relation Movie${i} from movies {
    title: text
    year: int
    director: text
    key (title, year)
}
relation Director${i} from movies distinct {
    name: text = "director"
    birth_year: int
    key (name)
}
relation Born${i} from movies distinct {
    year: int = "birth_year"
}
fd Movie${i}: title, year -> director
fk Movie${i}.year -> Born${i}.year
`;

test('relations over one source share projections, groupings and check results, and keep their own diagnostics', async () => {
    fs.writeFileSync(path.join(dir, 'movies.csv'), CSV);
    fs.writeFileSync(path.join(dir, 'spec.probe'), `source movies csv "movies.csv"\n${block(1)}${block(2)}`);
    const { data, diagnostics } = await checkSpec(path.join(dir, 'spec.probe'));
    const t = (name: string) => data.tables.get(name)!;

    // One distinct projection for Director1 and Director2: the same rows, the same arrays.
    assert.equal(t('Director1').rowCount, 4);
    assert.equal(t('Director1').column('name')!.codes, t('Director2').column('name')!.codes);
    assert.equal(t('Director1').lines, t('Director2').lines);
    assert.notEqual(t('Director1').column('name')!.codes, t('Movie1').column('director')!.codes);

    // One grouping of (title, year), whichever table's columns ask; with nulls as values, another one.
    const key = (name: string) => ['title', 'year'].map(a => columnCodes(t(name).column(a)!));
    const grouped = groupCodes(key('Movie1'), 4);
    assert.equal(groupCodes(key('Movie2'), 4), grouped);
    assert.equal(grouped.codes[0], grouped.codes[1]);
    assert.equal(new Set(grouped.codes).size, 3);
    assert.notEqual(groupCodes(key('Movie1'), 4, true), grouped);

    // One result per check over the same columns.
    assert.equal(checkKey(t('Movie2'), ['title', 'year']), checkKey(t('Movie1'), ['title', 'year']));
    assert.equal(checkKey(t('Movie1'), ['title', 'year']).length, 1);
    const fd = { lhs: ['title', 'year'], rhs: ['director'] };
    assert.equal(checkFd(t('Movie2'), fd), checkFd(t('Movie1'), fd));
    assert.equal(checkFd(t('Movie1'), fd).length, 1);
    const fk = { from: { attributes: ['year'] }, to: { attributes: ['year'] } };
    assert.equal(checkFk(t('Movie2'), t('Born2'), fk), checkFk(t('Movie1'), t('Born1'), fk));

    // Each relation still has its own diagnostics, naming it.
    for (const i of [1, 2]) {
        for (const code of ['key-not-unique', 'fd-violated', 'fk-dangling'])
            assert.ok(
                diagnostics.some(d => d.code === code && d.message.includes(`Movie${i}`)),
                `${code} of Movie${i}`,
            );
    }
});
