/**
 * One mistake, one place (issue 36 item 9): `check` and `preview` report a key the data breaks at the same place —
 * its `key (…)` — not one at the key and the other at its relation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main.js';

async function cli(args: string[]): Promise<string> {
    const log = console.log, error = console.error;
    let out = '';
    console.log = (...a: unknown[]) => { out += `${a.join(' ')}\n`; };
    console.error = console.log;
    try { await main(args); } finally { console.log = log; console.error = error; }
    return out;
}

test('a duplicated key: check and preview place it alike, at the key', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hp-agree-'));
    writeFileSync(path.join(dir, 'd.csv'), 'id,name\n1,a\n1,b\n2,c\n');
    const spec = path.join(dir, 'k.probe');
    writeFileSync(spec, 'source d csv "d.csv"\n\nrelation R from d label "thing" {\n    id: int\n    name: text\n    key (id)\n}\n');
    const at = (out: string) => [...out.matchAll(/k\.probe:(\d+:\d+) error \[key-not-unique\]/g)].map(m => m[1]);
    const checked = at(await cli(['check', spec]));
    const previewed = at(await cli(['preview', spec]));
    assert.deepEqual(checked, ['6:5']);
    assert.deepEqual(previewed, checked);
});
