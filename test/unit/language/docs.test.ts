/**
 * docs/language.md is the reference a user writes a first spec from, so every example in it must work: each
 * ```probe block is a complete spec, checked as `halluprobe check` checks it (language, data, probe problems)
 * against the small data in test/fixtures/docs/data, and must have no error and no warning. A block whose first
 * line is `// NAME.probe` is saved under that name, so later examples can `import` it as the text says.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { services } from './support.js';
import { checkSpec } from '../../../src/core/spec/check.js';
import { probeDiagnostics } from '../../../src/core/probes/index.js';
import { familyKinds } from '../../../src/core/probes/registry.js';

const DOC = path.resolve(import.meta.dirname, '../../../docs/language.md');
const DATA = path.resolve(import.meta.dirname, '../../fixtures/docs/data');

interface Block {
    file: string;
    text: string;
    line: number;
}

function blocks(): Block[] {
    const doc = fs.readFileSync(DOC, 'utf8');
    return [...doc.matchAll(/```probe\n([\s\S]*?)```/g)].map((m, i) => {
        const text = m[1]!;
        const named = /^\/\/ (\w+\.probe)\b/.exec(text)?.[1];
        return { file: named ?? `example-${i + 1}.probe`, text, line: doc.slice(0, m.index).split('\n').length };
    });
}

/** The docs' data folder: the fixture CSV / TSV files, and the SQLite file the sqlite examples read. */
function writeProject(dir: string, examples: Block[]): void {
    fs.cpSync(DATA, path.join(dir, 'data'), { recursive: true });
    const db = new Database(path.join(dir, 'data', 'films.db'));
    db.exec('create table films (title text, year integer, director text)');
    const insert = db.prepare('insert into films values (?, ?, ?)');
    for (const row of [
        ['Avatar', 2009, 'James Cameron'],
        ['Spectre', 2015, 'Sam Mendes'],
        ['Titanic', 1997, 'James Cameron'],
    ])
        insert.run(...row);
    db.close();
    for (const b of examples) fs.writeFileSync(path.join(dir, b.file), b.text);
}

describe('docs/language.md', () => {
    const examples = blocks();
    let dir = '';
    before(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-docs-'));
        writeProject(dir, examples);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('has a complete example for every construct, and names each example file once', () => {
        assert.ok(examples.length >= 14, `found ${examples.length} examples`);
        const names = examples.map(b => b.file);
        assert.deepEqual(
            names.filter((n, i) => names.indexOf(n) !== i),
            [],
        );
    });

    it('shows a probe of every registered family', () => {
        const text = examples.map(b => b.text).join('\n');
        assert.deepEqual(
            familyKinds().filter(kind => !new RegExp(`^probe \\w+ ${kind} `, 'm').test(text)),
            [],
        );
    });

    it('every ```probe example parses without a syntax error', () => {
        for (const b of examples) {
            const result = services.parser.LangiumParser.parse(b.text);
            assert.deepEqual(
                [
                    ...result.lexerErrors.map(e => e.message),
                    ...result.parserErrors.map(e => `${e.message} (line ${e.token.startLine})`),
                ],
                [],
                `docs/language.md:${b.line}`,
            );
        }
    });

    it('every ```probe example checks clean against the fixture data: no error, no warning', async () => {
        const problems: string[] = [];
        for (const b of examples) {
            const checked = await checkSpec(path.join(dir, b.file));
            for (const d of [...checked.diagnostics, ...probeDiagnostics(checked.model, checked.data)]) {
                problems.push(
                    `docs/language.md:${b.line} (${b.file}) ${path.basename(d.file)}:${d.range.start.line + 1} ${d.severity} [${d.code}] ${d.message}`,
                );
            }
        }
        assert.deepEqual(problems, []);
    });
});
