import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { check } from '../../../src/cli/commands/check.js';
import { parseArgs } from '../../../src/cli/args.js';

/** Runs `halluprobe check` in-process and collects what it prints. */
async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [],
        err: string[] = [];
    const log = console.log,
        error = console.error;
    console.log = (...a: unknown[]) => {
        out.push(a.join(' '));
    };
    console.error = (...a: unknown[]) => {
        err.push(a.join(' '));
    };
    try {
        const code = await check.run(parseArgs(argv));
        return { code, out: out.join('\n'), err: err.join('\n') };
    } finally {
        console.log = log;
        console.error = error;
    }
}

describe('halluprobe check', () => {
    it('exits 2 with the usage for a missing file, an unknown option or a bad format', async () => {
        for (const argv of [
            [],
            ['nowhere.probe'],
            ['examples/movie/movie.probe', '--colour'],
            ['examples/movie/movie.probe', '--format', 'xml'],
        ]) {
            const r = await run(...argv);
            assert.equal(r.code, 2, argv.join(' '));
            assert.match(r.err, /halluprobe check <spec.probe>/);
        }
    });

    it('reports language errors as JSON rows with 1-based lines and columns, and exits 1', async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-check-'));
        try {
            const file = path.join(dir, 'bad.probe');
            fs.writeFileSync(file, 'source s csv "s.csv"\nrelation R from s {\n    a: int\n}\nfd R: b -> a\n');
            const r = await run(file, '--format', 'json');
            assert.equal(r.code, 1);
            const rows = JSON.parse(r.out) as {
                file: string;
                line: number;
                column: number;
                severity: string;
                code: string;
                message: string;
            }[];
            const unresolved = rows.find(x => x.code === 'unresolved-name')!;
            assert.deepEqual(
                { ...unresolved, message: undefined },
                { file, line: 5, column: 7, severity: 'error', code: 'unresolved-name', message: undefined },
            );
            assert.ok(rows.every(x => Object.keys(x).sort().join() === 'code,column,file,line,message,severity'));
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it('passes the movie example and prints text by default', async () => {
        const r = await run('examples/movie/movie.probe');
        assert.equal(r.code, 0, r.out);
        assert.match(r.out, /No problems found|0 error\(s\)/);
    });
});
