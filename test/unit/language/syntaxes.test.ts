import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const grammar = JSON.parse(fs.readFileSync(path.join(ROOT, 'syntaxes/probe.tmLanguage.json'), 'utf8'));
const config = JSON.parse(fs.readFileSync(path.join(ROOT, 'language-configuration.json'), 'utf8'));

/** Every `match`/`begin`/`end` regex of the TextMate grammar, with the scope it gives. */
function regexes(
    node: unknown,
    out: { source: string; scope: string; key: string }[] = [],
    scope = '',
): { source: string; scope: string; key: string }[] {
    if (Array.isArray(node)) node.forEach(n => regexes(n, out, scope));
    else if (node && typeof node === 'object') {
        const o = node as Record<string, unknown>;
        const name = typeof o.name === 'string' ? o.name : scope;
        for (const key of ['match', 'begin', 'end'])
            if (typeof o[key] === 'string') out.push({ source: o[key] as string, scope: name, key });
        for (const [k, v] of Object.entries(o)) if (k !== 'match' && k !== 'begin' && k !== 'end') regexes(v, out, name);
    }
    return out;
}

describe('TextMate grammar and language configuration', () => {
    const all = regexes(grammar);

    it('has regexes that compile', () => {
        assert.ok(all.length > 20);
        for (const r of all) assert.doesNotThrow(() => new RegExp(r.source), r.source);
    });

    it('highlights every keyword of the Langium grammar', () => {
        const langium = fs.readFileSync(path.join(ROOT, 'src/core/language/probe.langium'), 'utf8');
        const keywords = [...new Set([...langium.matchAll(/'([a-z_]+)'/g)].map(m => m[1]!))];
        assert.ok(keywords.includes('relation') && keywords.includes('fd'));
        const line = (k: string) =>
            (
                ({
                    relation: 'relation R from s',
                    probe: 'probe p binary',
                    model: 'model m openai',
                    suite: 'suite s',
                    source: 'source s csv',
                    fd: 'fd R:',
                    as: 'as x',
                }) as Record<string, string>
            )[k] ?? k;
        // Outside strings: the placeholder rules would match any word.
        const { placeholder: _p, strings: _s, 'string-escapes': _e, ...outside } = grammar.repository;
        const code = regexes(outside).filter(r => r.key === 'match'); // an `end` such as "$" matches anything
        const missing = keywords.filter(k => !code.some(r => new RegExp(r.source).test(line(k))));
        assert.deepEqual(missing, []);
    });

    it('marks placeholders inside strings and the template functions', () => {
        const placeholder = grammar.repository.placeholder;
        assert.equal(placeholder.begin, '\\{');
        const fn = placeholder.patterns.find((p: { name?: string }) => p.name === 'support.function.template.probe');
        assert.match('decade(', new RegExp(fn.match));
        assert.ok(
            grammar.repository.strings.patterns.every((p: { patterns: { include: string }[] }) =>
                p.patterns.some(x => x.include === '#placeholder'),
            ),
        );
    });

    it('auto-closes quotes and braces, and declares comments and brackets', () => {
        const pairs = config.autoClosingPairs.map((p: { open: string }) => p.open);
        for (const open of ['{', '(', '[', '"', "'"]) assert.ok(pairs.includes(open), open);
        assert.equal(config.comments.lineComment, '//');
        assert.deepEqual(config.comments.blockComment, ['/*', '*/']);
        assert.ok(config.folding.markers.start);
    });

    it("highlights exactly the registry's probe kinds (generated at build time by scripts/grammar-kinds.mjs)", async () => {
        const { BUILTIN_FAMILIES } = await import('../../../src/core/probes/registry.js');
        const kinds = Object.keys(BUILTIN_FAMILIES);
        const lists = all
            .filter(r => /probe-kind/.test(r.scope) || /\(probe\)/.test(r.source))
            .map(r => /\(((?:[a-z_]+\|)+[a-z_]+)\)\\b/.exec(r.source)?.[1])
            .filter(Boolean);
        assert.equal(lists.length, 2, JSON.stringify(lists));
        for (const list of lists) assert.deepEqual(list!.split('|'), kinds);
    });

    it('keeps only real keywords usable as names (language/tokens.ts)', async () => {
        const { KEYWORDS_USABLE_AS_NAMES } = await import('../../../src/core/language/tokens.js');
        const langium = fs.readFileSync(path.join(ROOT, 'src/core/language/probe.langium'), 'utf8');
        const keywords = new Set([...langium.matchAll(/'([a-z_]+)'/g)].map(m => m[1]!));
        assert.deepEqual(
            [...KEYWORDS_USABLE_AS_NAMES].filter(k => !keywords.has(k)),
            [],
        );
    });
});
