// Issue 11, "Also": an endpoint that echoes the key back — plain, base64 or URL-encoded, in an answer or an error —
// never gets it into the store or onto the terminal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { startOpenAIServer } from '../support/openai-server.js';
import { writeSpec } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';

const KEY = 'sk-echo-test-Zq9/+key=0123456789';

/** The key's forms an endpoint might send back. */
function forms(key: string): string[] {
    const b64 = Buffer.from(key).toString('base64');
    return [key, encodeURIComponent(key), b64, b64.replace(/=+$/, ''), Buffer.from(key).toString('base64url')];
}

test('a key echoed in answers (plain, base64, URL-encoded) is stored and printed redacted', { timeout: 60_000 }, async () => {
    let n = 0;
    const server = await startOpenAIServer({
        answer: info => {
            const key = (info.authorization ?? '').replace(/^Bearer /, '');
            const all = forms(key);
            return `Yes. (debug: ${all[n++ % all.length]})`;
        },
    });
    try {
        const spec = writeSpec(server.url);
        const db = path.join(path.dirname(spec), 'r.db');
        const r = await cli(['run', spec, '--db', db, '--yes'], { OPENAI_API_KEY: KEY });
        assert.equal(r.code, 0, r.stderr);
        assert.ok(
            server.log.every(e => e.authorization === `Bearer ${KEY}`),
            'the server saw the key (so it could echo it)',
        );
        const report = await cli(['report', '--db', db], {});
        const stored = readdirSync(path.dirname(db))
            .filter(f => f.startsWith('r.db'))
            .map(f => readFileSync(path.join(path.dirname(db), f)).toString('latin1'))
            .join('\n');
        for (const form of forms(KEY)) {
            assert.ok(!stored.includes(form), `the store holds the key as ${form}`);
            assert.ok(
                !(r.stdout + r.stderr + report.stdout + report.stderr).includes(form),
                `the terminal shows the key as ${form}`,
            );
        }
        const conn = new Database(db, { readonly: true });
        const texts = (conn.prepare('SELECT text FROM responses').all() as { text: string }[]).map(r => r.text);
        conn.close();
        assert.equal(texts.length, 80);
        assert.ok(
            texts.every(t => t.startsWith('Yes. (debug: [redacted]')),
            texts.find(t => !t.includes('[redacted]')),
        );
    } finally {
        await server.close();
    }
});
