/**
 * A window reload as the language server sees it (issue 39): a new server process given the same `dataCacheDir`
 * reads the data of the open spec from the column store the last process wrote, and publishes the same diagnostics.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startLanguageServer, within } from '../support/lsp-process.js';
import { largeSpec, writeLargeCsv } from '../support/large-spec.js';

test("a reloaded server reads the open spec's data from the store the last one wrote", { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-data-cache-'));
    const store = path.join(dir, '.storage', 'data-cache');
    try {
        writeLargeCsv(path.join(dir, 'movies.csv'), 300);
        const text = largeSpec(60);
        const published: unknown[] = [];
        for (const hits of [0, 1]) {
            const server = await startLanguageServer(dir, [], { dataCacheDir: store });
            try {
                server.open('spec.probe', text);
                const ds = await within(server.diagnosticsFor(server.uri('spec.probe')), 60_000, 'diagnostics');
                published.push(ds);
                assert.match(server.log(), new RegExp(`data cache: ${hits} sources read from .*, ${1 - hits} from their files`));
            } finally {
                await server.close();
            }
            assert.equal(fs.readdirSync(store).filter(f => f.endsWith('.bin')).length, 1);
        }
        assert.deepEqual(published[1], published[0]);
        assert.ok((published[0] as { code: string }[]).some(d => d.code === 'probe-answer-in-question'));
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
});
