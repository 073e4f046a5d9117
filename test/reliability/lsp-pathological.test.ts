// Issue 29, item 4: a spec of 150,000 `//` lines (in the workspace at start-up, and as an unsaved document) overflowed
// the stack in the parser's hidden-node handling, and no document got diagnostics or hovers again. Now it parses,
// a text the parser still cannot take is one located error on that file, and other documents are unaffected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MarkupContent } from 'vscode-languageserver-protocol';
import { FIXTURES } from '../server/support.js';
import { startLanguageServer, within } from '../support/lsp-process.js';
import { unparseableMessage } from '../../src/core/language/parse-guard.js';
import { cli } from '../support/cli-process.js';

const COMMENTS = '//\n'.repeat(150_000);

test(
    '150,000 comment lines in the workspace and in an unsaved document stop no other document',
    { timeout: 120_000 },
    async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-lsp-comments-'));
        fs.cpSync(FIXTURES, dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'comments.probe'), COMMENTS);
        const lsp = await startLanguageServer(dir);
        try {
            const spec = fs.readFileSync(path.join(dir, 'movie.probe'), 'utf8');
            const line = spec.split('\n').findIndex(l => l.startsWith('relation Movie'));
            lsp.open('movie.probe', spec);
            await within(lsp.diagnosticsFor(lsp.uri('movie.probe')), 60_000, 'diagnostics of movie.probe');
            const hover = await within(lsp.hover('movie.probe', line, 10), 20_000, 'hover on Movie');
            assert.match((hover?.contents as MarkupContent).value, /Movie/);
            // The same text unsaved, with a relation after the comments: it is parsed, checked, and blocks nothing.
            lsp.open('unsaved.probe', `${COMMENTS}relation Late from nowhere { a: text key (a) }\n`);
            const late = await within(lsp.diagnosticsFor(lsp.uri('unsaved.probe')), 60_000, 'diagnostics of unsaved.probe');
            assert.ok(
                late.some(d => d.range.start.line === 150_000),
                `a located diagnostic after the comments: ${JSON.stringify(late.slice(0, 3))}`,
            );
            lsp.change('movie.probe', spec.replace('fd Movie: title, year', 'fd Movie: titel, year'), 2);
            await within(
                lsp.diagnosticsFor(lsp.uri('movie.probe'), ds => ds.some(d => d.code === 'unresolved-name')),
                20_000,
                'diagnostics after an edit',
            );
            assert.ok((await within(lsp.hover('movie.probe', line, 10), 2_000, 'hover after the edit')) !== null);
            assert.equal(lsp.child.exitCode, null, lsp.log());
        } finally {
            await lsp.close();
            fs.rmSync(dir, { recursive: true, force: true });
        }
    },
);

test(
    'check reads a 150,000-line comment file, and names the shape of a file the parser cannot take',
    { timeout: 60_000 },
    async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-check-comments-'));
        try {
            fs.writeFileSync(path.join(dir, 'comments.probe'), COMMENTS);
            const r = await cli(['check', path.join(dir, 'comments.probe')], {});
            assert.equal(r.code, 0, r.stdout + r.stderr);
            const message = unparseableMessage(COMMENTS, new RangeError('Maximum call stack size exceeded'));
            assert.match(message, /ran out of stack space on 150,000 comment lines in a row/);
            assert.doesNotMatch(message, /long string/);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    },
);
