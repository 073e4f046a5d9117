// Item 7 of issue 11: control characters from data, models and endpoints never reach the terminal raw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { escapeTerminal } from '../../src/core/terminal.js';
import { startOpenAIServer } from '../support/openai-server.js';
import { writeSpec } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';

const PAYLOAD = '\x1b[2J\x1b]0;pwned\x07\x1b[31m\u202e\x9b';
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/;

/** The runner spec with a control-character payload in one star's name. */
function poisonedSpec(url: string): string {
    const spec = writeSpec(url);
    const csv = path.join(path.dirname(spec), 'movies.csv');
    writeFileSync(csv, readFileSync(csv, 'utf8').replaceAll('Actor ', `Actor ${PAYLOAD}`));
    return spec;
}

test('escapeTerminal shows control characters and keeps lines', () => {
    assert.equal(escapeTerminal(`a${PAYLOAD}\tb\nc\r`), 'a\\x1b[2J\\x1b]0;pwned\\x07\\x1b[31m\\u202e\\x9b\tb\nc\\x0d');
});

test('preview prints data cells escaped', async () => {
    const spec = poisonedSpec('http://127.0.0.1:9/v1');
    const r = await cli(['preview', spec, '--format', 'table'], {});
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Actor \\x1b\[2J\\x1b\]0;pwned\\x07/);
    assert.doesNotMatch(r.stdout + r.stderr, RAW);
});

test("run prints an endpoint's error body escaped", async () => {
    const server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
            res.writeHead(400, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: { message: `bad request ${PAYLOAD}` } }));
        });
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    try {
        const spec = writeSpec(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
        const r = await cli(['run', spec, '--db', path.join(path.dirname(spec), 'r.db'), '--limit', '3', '--yes'], {
            OPENAI_API_KEY: 'sk-escape-test-1234',
        });
        assert.equal(r.code, 1);
        assert.match(r.stderr, /bad request \\x1b\[2J/);
        assert.doesNotMatch(r.stdout + r.stderr, RAW);
    } finally {
        await new Promise(resolve => server.close(resolve));
    }
});

test('report --format md on stdout prints model answers and data cells escaped', async () => {
    const server = await startOpenAIServer({ answer: () => `Yes ${PAYLOAD} indeed.` });
    try {
        const spec = poisonedSpec(server.url);
        const db = path.join(path.dirname(spec), 'r.db');
        const run = await cli(['run', spec, '--db', db, '--limit', '4', '--yes'], { OPENAI_API_KEY: 'sk-escape-test-1234' });
        assert.doesNotMatch(run.stdout + run.stderr, RAW);
        const r = await cli(['report', '--db', db], {});
        assert.ok(r.stdout.length > 0, r.stderr);
        assert.match(r.stdout, /\\x1b\\?\[2J/);
        assert.doesNotMatch(r.stdout + r.stderr, RAW);
    } finally {
        await server.close();
    }
});
