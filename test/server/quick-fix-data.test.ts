// Quick fixes read the suggestion the validator attached to the diagnostic (`data`), never its message: a fix
// offered from a message with its words changed (or translated) is the same fix.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as fs from 'node:fs';
import type { LangiumDocument } from 'langium';
import type { Diagnostic } from 'vscode-languageserver';
import { codeActionsFor } from '../../src/server/features/code-actions.js';
import { FIXTURES, open, serverServices } from './support.js';

describe('quick fixes from structured diagnostic data', () => {
    let doc: LangiumDocument;
    before(async () => {
        const s = serverServices();
        const text = `${fs.readFileSync(path.join(FIXTURES, 'movie.probe'), 'utf8')}
model m opneai { id "x" }
aliases Movie.title { name_prts }
suite s { probes movie_binary variant zero_sht }
probe p2 binary using movie_director { basic "Is {directer} born in {birth_year}, {uper(title)}?" }
`;
        doc = await open(s, path.join(FIXTURES, 'quick-fix-data.probe'), text);
    });
    const fixOf = (d: Diagnostic) => {
        const action = codeActionsFor(doc, { ...d, message: 'reworded' })[0];
        return action?.edit?.changes ? Object.values(action.edit.changes)[0]![0]!.newText : undefined;
    };
    const find = (code: string, needle: string) => {
        const d = (doc.diagnostics ?? []).find(x => x.code === code && doc.textDocument.getText(x.range).includes(needle));
        assert.ok(d, `${code} on ${needle}: ${JSON.stringify(doc.diagnostics?.map(x => [x.code, x.message]))}`);
        return d;
    };

    for (const [code, needle, fix] of [
        ['unknown-provider', 'opneai', 'openai'],
        ['unknown-normaliser', 'name_prts', 'name_parts'],
        ['unknown-variant', 'zero_sht', 'zero_shot'],
        ['unknown-attribute', 'directer', 'director'],
        ['unknown-function', 'uper', 'upper'],
        ['unknown-attribute', 'birth_year', 'Director.birth_year'],
    ] as const) {
        it(`${code} on '${needle}': the suggestion is on the diagnostic, and the fix does not read the message`, () => {
            const d = find(code, needle);
            assert.equal((d.data as { suggestion?: string } | undefined)?.suggestion, fix);
            assert.equal(fixOf(d), fix);
        });
    }
});
