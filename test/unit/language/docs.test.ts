import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { services } from './support.js';

const DOC = path.resolve(import.meta.dirname, '../../../docs/language.md');

describe('docs/language.md', () => {
    it('every ```probe example parses without a syntax error', () => {
        const blocks = [...fs.readFileSync(DOC, 'utf8').matchAll(/```probe\n([\s\S]*?)```/g)].map(m => m[1]!);
        assert.ok(blocks.length >= 9, `found ${blocks.length} examples`);
        for (const block of blocks) {
            const result = services.parser.LangiumParser.parse(block);
            assert.deepEqual([...result.lexerErrors.map(e => e.message), ...result.parserErrors.map(e => `${e.message} (line ${e.token.startLine})`)], [], block);
        }
    });
});
