// Issue 25 item 6, over a real LSP connection to the built server: a half-typed line is one problem in the spec's
// words where the typing stopped; what follows from a broken declaration or an unresolved name is not reported again;
// a template typo is one diagnostic.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { FIXTURES } from './support.js';
import { startLspClient, type LspClient } from './lsp-client.js';

/** The fixture spec with a second probe and a suite, `edit` applied; the data's own FD violation is not an error of the text. */
const BASE =
    fs.readFileSync(path.join(FIXTURES, 'movie.probe'), 'utf8') +
    '\nprobe knows_movie knows about Movie {\n    ask "Do you know the movie {title} ({year})?"\n}\n\nmodel sim offline {\n    seed 1\n}\n\nsuite all {\n    probes movie_binary, knows_movie\n    models sim\n}\n';

// The timeout only stops a broken server from hanging the run; nothing here asserts on time.
describe('problems while typing, over a real LSP connection', { timeout: 120_000 }, () => {
    let client: LspClient;
    let version = 1;
    /** The errors of the untouched spec (the fixture's data problems): not what these tests are about. */
    let baseline = new Set<string>();
    const key = (d: Diagnostic) => `${String(d.code)}|${String(d.message)}`;

    before(async () => {
        client = await startLspClient('halluprobe-typing-');
    });
    after(async () => {
        await client?.stop();
    });

    /** Opens `text` as a new document and resolves with the diagnostics the server publishes once data checks are in. */
    async function diagnose(name: string, text: string): Promise<{ text: string; errors: Diagnostic[]; all: Diagnostic[] }> {
        const uri = pathToFileURL(path.join(client.dir, name)).toString();
        client.rpc.sendNotification('textDocument/didOpen', {
            textDocument: { uri, languageId: 'probe', version: ++version, text },
        });
        // The data diagnostics (the fixture's FD violation) come with the full check: wait for them.
        const all = await client.diagnosticsFor(uri, ds => ds.some(d => d.code === 'fd-violated'));
        return { text, errors: all.filter(d => d.severity === 1 && !baseline.has(key(d))), all };
    }

    it("a clean spec has no error but the data's", async () => {
        const { all } = await diagnose('clean.probe', BASE);
        assert.ok(
            all.every(d => d.severity !== 1 || /data\/movies\.csv/.test(String(d.message))),
            all.map(d => `${String(d.code)}: ${String(d.message)}`).join('\n'),
        );
        baseline = new Set(all.map(key));
    });

    it("a half-typed line is one problem, where the typing stopped, in the spec's words", async () => {
        const text = BASE.replace('probe knows_movie', 'probe p2 binary using \n\nprobe knows_movie');
        const { errors } = await diagnose('half.probe', text);
        assert.equal(errors.length, 1, errors.map(d => `${String(d.code)}: ${String(d.message)}`).join('\n'));
        const [d] = errors;
        const line = text.split('\n').findIndex(l => l.startsWith('probe p2'));
        assert.equal(d!.code, 'syntax');
        assert.deepEqual(d!.range.start, { line, character: 'probe p2 binary using'.length });
        assert.equal(d!.message, 'Unfinished probe p2: expected the name of an FD or rule after `using`.');
    });

    it("the parser's alternatives are worded as the spec's, not as token sequences", async () => {
        const text = BASE.replace('    seed 1\n', '    seed\n');
        const { errors } = await diagnose('values.probe', text);
        assert.equal(errors.length, 1, errors.map(d => `${String(d.code)}: ${String(d.message)}`).join('\n'));
        assert.doesNotMatch(String(errors[0]!.message), /Expecting|Token sequences|\[STRING\]/);
        assert.equal(
            errors[0]!.message,
            'Unfinished model sim: expected a quoted text ("…"), a number, `true`, `false`, a name or `[` after `seed`.',
        );
        assert.deepEqual(errors[0]!.range.start, {
            line: text.split('\n').findIndex(l => l === '    seed'),
            character: '    seed'.length,
        });
    });

    it('an unresolved name is reported once: not again as the probe it leaves without an FD', async () => {
        const text = BASE.replace('using movie_director', 'using movie_directr');
        const { errors } = await diagnose('unresolved.probe', text);
        assert.deepEqual(
            errors.map(d => d.code),
            ['unresolved-name'],
            errors.map(d => `${String(d.code)}: ${String(d.message)}`).join('\n'),
        );
        assert.match(String(errors[0]!.message), /Did you mean 'movie_director'/);
    });

    it('a template typo is one diagnostic, with its fix', async () => {
        const text = BASE.replace('the director of {title}', 'the director of {titel}');
        const { errors } = await diagnose('typo.probe', text);
        assert.deepEqual(
            errors.map(d => d.code),
            ['unknown-attribute'],
            errors.map(d => `${String(d.code)}: ${String(d.message)}`).join('\n'),
        );
        assert.match(String(errors[0]!.message), /Did you mean 'title'/);
    });
});
