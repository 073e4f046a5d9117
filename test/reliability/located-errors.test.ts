// Item 6 of issue 11: bad input is a located diagnostic or a usage error with a remedy; exit 70 means a bug.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { writeSpec } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';

/** The runner spec with `edit` applied to its text. */
function spec(edit: (text: string) => string): string {
    const file = writeSpec('http://127.0.0.1:9/v1');
    writeFileSync(file, edit(readFileSync(file, 'utf8')));
    return file;
}

const located = /^\S+:\d+:\d+ error \[[a-z-]+\] .+/m;

async function check(file: string) {
    const r = await cli(['check', file], {});
    assert.notEqual(r.code, 70, `internal error: ${r.stderr}`);
    assert.doesNotMatch(r.stdout + r.stderr, /internal error|NaN|Maximum call stack/);
    return r;
}

for (const target of ['common.txt', '/etc/passwd', '/dev/zero']) {
    test(`import "${target}" is a located error with a remedy`, async () => {
        const file = spec(t => `import "${target}"\n${t}`);
        writeFileSync(path.join(path.dirname(file), 'common.txt'), 'hello\n');
        const r = await check(file);
        assert.equal(r.code, 1);
        assert.match(r.stdout, /:1:8 error \[bad-import\] .*(only \.probe files|not a regular file)/);
    });
}

test('a 5 MB string literal parses (no stack overflow)', async () => {
    const r = await check(spec(t => t.replace('basic "Is there', `basic "${'x'.repeat(5_000_000)} Is there`)));
    assert.ok(r.code === 0 || located.test(r.stdout), r.stdout.slice(0, 500));
});

test('20,000 nested calls in a template: a located error with a real column', async () => {
    const r = await check(
        spec(t => t.replace('basic "Is there', `basic "{${'lower('.repeat(20_000)}star${')'.repeat(20_000)}} Is there`)),
    );
    assert.equal(r.code, 1);
    assert.match(r.stdout, /:15:\d+ error \[template-syntax\] The placeholder nests deeper than 64 levels/);
});

test('runs --db on a file that is not a store: a clear error, not exit 70', async () => {
    const dir = path.dirname(spec(t => t));
    const notes = path.join(dir, 'notes.txt');
    writeFileSync(notes, 'just some notes\n'.repeat(100));
    const r = await cli(['runs', '--db', notes], {});
    assert.equal(r.code, 1);
    assert.match(r.stderr, /notes\.txt is not a HalluProbe results store .*--db/);
    assert.doesNotMatch(r.stderr, /internal error/);
});

test('check /dev/zero as the spec itself is refused, not read', async () => {
    const r = await check('/dev/zero');
    assert.equal(r.code, 1);
    assert.match(r.stdout, /not a regular file/);
});
