// Issue 29, item 8: hover took 8–15 s during rapid edits of an 11,000-line spec: every edit's document build ran
// to its end (parse, link, validate, data checks) before the next one started. Now an edit cancels the previous
// build, at the latest at the next document phase or validation step, so a hover after a burst of edits waits for
// one build of the last text, and the diagnostics of the versions in between are never computed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MarkupContent } from 'vscode-languageserver-protocol';
import { startLanguageServer, within } from '../support/lsp-process.js';
import { largeSpec, writeLargeCsv } from '../support/large-spec.js';

const ROWS = 20_000;
const LINES = 11_000;
const EDITS = 30;

test(
    'a hover after a burst of edits of an 11,000-line spec waits for one build of the last text',
    { timeout: 240_000 },
    async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-lsp-rapid-'));
        writeLargeCsv(path.join(dir, 'movies.csv'), ROWS);
        const spec = largeSpec(LINES);
        fs.writeFileSync(path.join(dir, 'spec.probe'), spec);
        const lsp = await startLanguageServer(dir);
        try {
            lsp.open('spec.probe', spec);
            const first = await within(lsp.diagnosticsFor(lsp.uri('spec.probe')), 180_000, 'the first diagnostics');
            assert.deepEqual(
                first.filter(d => d.severity === 1).map(d => d.message),
                [],
            );
            // Each version names an attribute that does not exist, `titleV<version>`: its diagnostic says which version was validated.
            const validated = new Set<number>();
            const lastVersion = lsp.diagnosticsFor(lsp.uri('spec.probe'), ds => {
                for (const d of ds) {
                    const m = /titleV(\d+)/.exec(String(d.message));
                    if (m) validated.add(Number(m[1]));
                }
                return validated.has(EDITS + 1);
            });
            const at = spec.indexOf('fd Movie0: title, year');
            const line = spec.slice(0, at).split('\n').length - 1;
            const text = (v: number) => spec.replace('fd Movie0: title, year', `fd Movie0: titleV${v}, year`);
            for (let v = 2; v <= EDITS + 1; v++) lsp.change('spec.probe', text(v), v);
            // Answered after one build of the last text (a parse and a link), not after one per edit (8–15 s before).
            const hover = await within(lsp.hover('spec.probe', 2, 10), 5_000, 'a hover right after the burst of edits');
            assert.match((hover?.contents as MarkupContent | undefined)?.value ?? '', /Movie0/);
            const last = await within(lastVersion, 60_000, 'the diagnostics of the last version');
            assert.ok(last.some(d => d.range.start.line === line && String(d.message).includes(`titleV${EDITS + 1}`)));
            // The stale versions' builds were cancelled: at most the one running when the burst arrived was validated.
            const stale = [...validated].filter(v => v <= EDITS);
            assert.ok(stale.length <= 1, `versions validated before the last: ${stale.join(', ')}`);
            assert.equal(lsp.child.exitCode, null, lsp.log());
        } finally {
            await lsp.close();
            fs.rmSync(dir, { recursive: true, force: true });
        }
    },
);
