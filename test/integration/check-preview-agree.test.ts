/**
 * One mistake, one place (issue 36 item 9): `check` and `preview` report a key the data breaks at the same place —
 * its `key (…)` — not one at the key and the other at its relation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main.js';

async function cli(args: string[]): Promise<string> {
    const log = console.log,
        error = console.error;
    let out = '';
    console.log = (...a: unknown[]) => {
        out += `${a.join(' ')}\n`;
    };
    console.error = console.log;
    try {
        await main(args);
    } finally {
        console.log = log;
        console.error = error;
    }
    return out;
}

test('a duplicated key: check and preview place it alike, at the key', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hp-agree-'));
    writeFileSync(path.join(dir, 'd.csv'), 'id,name\n1,a\n1,b\n2,c\n');
    const spec = path.join(dir, 'k.probe');
    writeFileSync(
        spec,
        'source d csv "d.csv"\n\nrelation R from d label "thing" {\n    id: int\n    name: text\n    key (id)\n}\n',
    );
    const at = (out: string) => [...out.matchAll(/k\.probe:(\d+:\d+) error \[key-not-unique\]/g)].map(m => m[1]);
    const checked = at(await cli(['check', spec]));
    const previewed = at(await cli(['preview', spec]));
    assert.deepEqual(checked, ['6:5']);
    assert.deepEqual(previewed, checked);
});

/** The movie example copied to a temporary folder, its spec changed by `edit`; the spec's path. */
function movieWith(edit: (text: string) => string): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hp-one-'));
    cpSync(path.resolve(import.meta.dirname, '../../examples/movie'), dir, {
        recursive: true,
        filter: src => !src.includes('.halluprobe'),
    });
    const spec = path.join(dir, 'movie.probe');
    const text = readFileSync(spec, 'utf8');
    const changed = edit(text);
    assert.notEqual(changed, text, 'the edit changed the spec');
    writeFileSync(spec, changed);
    return spec;
}

// Issue 36 item 9: one mistake, one diagnostic, in check and in preview alike (before: a misspelt relation gave 4 and 3
// errors, a missing CSV 4 and 1).
for (const [what, edit, code] of [
    [
        'a misspelt relation in an fd',
        (t: string) => t.replace('fd Movie: title, year -> director', 'fd Movi: title, year -> director'),
        'unresolved-name',
    ],
    ['a misspelt relation in a path', (t: string) => t.replace('along Movie.director', 'along Movi.director'), 'unresolved-name'],
    [
        'a misspelt relation an fk leads to',
        (t: string) => t.replace('fk Movie.director -> Director.name', 'fk Movie.director -> Directr.name'),
        'unresolved-name',
    ],
    ['a missing CSV', (t: string) => t.replace('"data/movies.csv"', '"data/movie.csv"'), 'missing-file'],
] as const) {
    test(`${what}: one error, in check and in preview alike`, async () => {
        const spec = movieWith(edit);
        const errors = (out: string) =>
            [...out.matchAll(/movie\.probe:(\d+:\d+) error \[([\w-]+)\]/g)].map(m => `${m[1]} ${m[2]}`);
        const checked = errors(await cli(['check', spec]));
        const previewed = errors(await cli(['preview', spec, '--limit', '5']));
        assert.equal(checked.length, 1, `check: ${checked.join(' | ')}`);
        assert.match(checked[0]!, new RegExp(` ${code}$`));
        assert.deepEqual(previewed, checked);
    });
}
