// Issue 29, items 7–8 (JSON sources): a byte-order mark is accepted (as CSV does), bytes that are not UTF-8 are
// warned about, a record nested 6,000 deep is a clear error (it overflowed the stack: exit 70), and a large
// source is streamed (the heap does not hold the file several times over).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli } from '../support/cli-process.js';
import { repoRoot } from '../support/runner-fixtures.js';

const relation = (format: string, file: string) =>
    `source s ${format} "${file}"\n\nrelation R from s {\n    name: text\n    v: int\n    key (name)\n}\n`;

describe('JSON and JSONL sources', { timeout: 120_000 }, () => {
    let dir: string;
    const spec = (name: string, format: string, file: string, bytes: Buffer | string) => {
        fs.writeFileSync(path.join(dir, file), bytes);
        const p = path.join(dir, `${name}.probe`);
        fs.writeFileSync(p, relation(format, file));
        return p;
    };
    before(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-json-'));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('accepts a UTF-8 byte-order mark in JSON and JSONL', async () => {
        const bom = Buffer.from([0xef, 0xbb, 0xbf]);
        for (const [format, body] of [
            ['json', '[{"name":"a","v":1},{"name":"b","v":2}]'],
            ['jsonl', '{"name":"a","v":1}\n{"name":"b","v":2}\n'],
        ] as const) {
            const r = await cli(
                ['check', spec(`bom-${format}`, format, `bom.${format}`, Buffer.concat([bom, Buffer.from(body)]))],
                {},
            );
            assert.equal(r.code, 0, `${format}: ${r.stdout}${r.stderr}`);
            assert.match(r.stdout + r.stderr, /No problems found/);
        }
    });

    it('warns about bytes that are not UTF-8', async () => {
        const r = await cli(
            ['check', spec('latin', 'json', 'latin.json', Buffer.from('[{"name":"Jos\xe9","v":1}]', 'latin1'))],
            {},
        );
        assert.equal(r.code, 0, r.stdout + r.stderr);
        assert.match(r.stdout + r.stderr, /warning \[json-format\] latin\.json contains bytes that are not valid UTF-8/);
    });

    it('refuses a record nested 6,000 deep with a located error and exit 1, reading the others', async () => {
        const deep = `${'{"x":'.repeat(6000)}1${'}'.repeat(6000)}`;
        const r = await cli(
            ['check', spec('deep', 'json', 'deep.json', `[{"name":"a","v":1},{"name":"b","v":2,"d":${deep}}]`)],
            {},
        );
        assert.equal(r.code, 1, r.stdout + r.stderr);
        assert.match(
            r.stdout + r.stderr,
            /deep\.probe:1:1 error \[json-format\] deep\.json nests deeper than 1000 levels \(record 2\)/,
        );
        assert.doesNotMatch(r.stdout + r.stderr, /internal error/);
    });

    it('streams a 60 MB JSON array: the heap stays well under the file size', () => {
        const rows: string[] = [];
        for (let i = 0; i < 300_000; i++) rows.push(JSON.stringify({ name: `n${i}`, v: i, text: 'x'.repeat(150) }));
        const file = path.join(dir, 'big.json');
        fs.writeFileSync(file, `[${rows.join(',\n')}]`);
        const size = fs.statSync(file).size;
        // Reads every record through the engine's JSON reader in a child whose heap is capped below the file size.
        const script = `import { readJson } from ${JSON.stringify(path.join(repoRoot, 'src/core/data/json.ts'))};
let n = 0; const r = readJson({ name: 's', format: 'json', path: ${JSON.stringify(file)}, settings: {} }, '|', () => { n++; });
console.log(JSON.stringify({ n, header: r.header, problems: r.problems, heap: process.memoryUsage().heapUsed }));`;
        const child = spawnSync(
            process.execPath,
            ['--max-old-space-size=48', '--import', 'tsx', '--input-type=module', '-e', script],
            { cwd: repoRoot, encoding: 'utf8' },
        );
        assert.equal(child.status, 0, child.stderr.slice(-2000));
        const out = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as {
            n: number;
            header: string[];
            problems: unknown[];
            heap: number;
        };
        assert.equal(out.n, 300_000);
        assert.deepEqual(out.header, ['name', 'v', 'text']);
        assert.deepEqual(out.problems, []);
        assert.ok(size > 50e6, `the file is ${size} bytes`);
    });
});
