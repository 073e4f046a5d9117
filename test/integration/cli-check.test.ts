import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repo = path.resolve(import.meta.dirname, '..', '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-cli-check-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs the real CLI from the repository (so `npx node` is its Node 22, never the system node). */
function halluprobe(...args: string[]) {
    const env = {
        ...process.env,
        PATH: `${path.join(repo, 'node_modules', '.bin')}${path.delimiter}${process.env['PATH'] ?? ''}`,
    };
    const r = spawnSync('npx', ['node', path.join(repo, 'bin', 'halluprobe.js'), ...args], { cwd: repo, env, encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const copy = path.join(dir, 'movie');
fs.cpSync(path.join(repo, 'examples', 'movie'), copy, { recursive: true });
const spec = path.join(copy, 'movie.probe');
const csv = path.join(copy, 'data', 'movies.csv');

test('check on a copy of the movie example: no errors', () => {
    const r = halluprobe('check', spec);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout, /error \[/);
});

test('one director with two birth years: exit 1 and the FD violation with both line numbers', () => {
    const lines = fs.readFileSync(csv, 'utf8').split('\n');
    // A director with exactly two movies (so each birth year is on one row), and the two lines (1-based).
    const director = (row: string) => row.split(',')[3]!;
    const counts = new Map<string, number[]>();
    lines.slice(1).forEach((row, i) => {
        if (row) counts.set(director(row), [...(counts.get(director(row)) ?? []), i + 2]);
    });
    const found = [...counts].find(([, rows]) => rows.length === 2);
    assert.ok(found, 'the example has a director with two movies');
    const [name, at] = found;
    const [first, second] = [at[0]!, at[1]!];
    const fields = lines[second - 1]!.split(',');
    const year = Number(fields[fields.length - 1]);
    fields[fields.length - 1] = String(year + 1);
    lines[second - 1] = fields.join(',');
    fs.writeFileSync(csv, lines.join('\n'));

    const text = halluprobe('check', spec);
    assert.equal(text.status, 1, text.stdout + text.stderr);
    const violation = text.stdout.split('\n').find(l => l.includes('[fd-violated]'))!;
    assert.ok(violation, text.stdout);
    assert.match(violation, /movie\.probe:\d+:1 error \[fd-violated\] Director: name -> birth_year is violated by 1 group/);
    assert.ok(
        violation.includes(
            `'${name}' has birth_year ${year} (data/movies.csv:${first}) and ${year + 1} (data/movies.csv:${second})`,
        ),
        violation,
    );

    const json = halluprobe('check', '--format', 'json', spec);
    assert.equal(json.status, 1);
    const rows = JSON.parse(json.stdout) as {
        file: string;
        line: number;
        column: number;
        severity: string;
        code: string;
        message: string;
    }[];
    const fd = rows.find(r => r.code === 'fd-violated')!;
    assert.equal(fd.severity, 'error');
    assert.equal(fd.file, spec);
    const declared =
        fs
            .readFileSync(spec, 'utf8')
            .split('\n')
            .findIndex(l => l.startsWith('fd Director: name -> birth_year')) + 1;
    assert.equal(fd.line, declared);
    assert.equal(fd.column, 1);
    assert.ok(fd.message.includes(`data/movies.csv:${first})`) && fd.message.includes(`data/movies.csv:${second})`), fd.message);
});
