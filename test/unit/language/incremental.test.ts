// Issue 29, item 9: only the declarations an edit touched are parsed again (src/core/language/incremental.ts).
// The spliced tree must be the full parse's tree: the same nodes, properties, syntax nodes, offsets and ranges.
// Random edits (insert, delete, replace, whole lines, declarations, comments, broken text) of the movie spec
// and of a generated spec are applied one after another; after each, the incremental result (when it is used)
// is compared with a fresh full parse of the same text, and with the text it claims to be.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
    AstUtils,
    EmptyFileSystem,
    URI,
    type AstNode,
    type CompositeCstNode,
    type CstNode,
    type LangiumDocument,
    type LeafCstNode,
    type ParseResult,
    type Reference,
} from 'langium';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createProbeServerServices } from '../../../src/server/module.js';
import { buildSpecModel } from '../../../src/core/language/build-model.js';
import { createSpecServices, loadSpec } from '../../../src/core/spec/load.js';
import * as path from 'node:path';
import { spliceParse } from '../../../src/core/language/incremental.js';
import { prng } from '../../../src/core/probes/sampling.js';
import { MOVIE, services } from './support.js';

const parser = services.parser.LangiumParser;
const full = (text: string) => parser.parse(text) as ParseResult<AstNode>;

/** Everything a later phase reads from a parse: the AST's properties and the CST's leaves with their places. */
function shape(result: ParseResult<AstNode>): string {
    const seen = new Set<AstNode>();
    const ast = (node: AstNode): unknown => {
        seen.add(node);
        const out: Record<string, unknown> = {
            $type: node.$type,
            cst: node.$cstNode && [node.$cstNode.offset, node.$cstNode.length, node.$cstNode.range, node.$cstNode.text],
            index: node.$containerIndex,
            property: node.$containerProperty,
            container: node.$container?.$type,
        };
        for (const [k, v] of Object.entries(node)) {
            if (k.startsWith('$')) continue;
            const one = (x: unknown): unknown =>
                x && typeof x === 'object' && '$type' in x
                    ? ast(x as AstNode)
                    : x && typeof x === 'object' && '$refText' in x
                      ? { ref: (x as { $refText: string }).$refText, at: (x as { $refNode?: CstNode }).$refNode?.range }
                      : x;
            out[k] = Array.isArray(v) ? v.map(one) : one(v);
        }
        return out;
    };
    const cst = (node: CstNode): unknown =>
        'content' in node
            ? {
                  range: node.range,
                  offset: node.offset,
                  end: node.end,
                  ast: node.astNode.$type,
                  content: (node as CompositeCstNode).content.map(cst),
              }
            : {
                  o: node.offset,
                  l: node.length,
                  r: node.range,
                  h: node.hidden,
                  t: (node as LeafCstNode).tokenType.name,
                  text: node.text,
                  ast: node.astNode.$type,
              };
    return JSON.stringify({
        ast: ast(result.value),
        cst: cst(result.value.$cstNode!),
        errors: [result.lexerErrors.length, result.parserErrors.length],
    });
}

function generated(blocks: number): string {
    let text = 'source movies csv "movies.csv"\n';
    for (let i = 0; i < blocks; i++) {
        text +=
            `\n// block ${i}\nrelation Movie${i} from movies label "movie" {\n    title: text\n    year: int\n    director: text\n    key (title, year)\n}\n\n` +
            `fd Movie${i}: title, year -> director as movie_director${i}\nfk Movie${i}.director -> Movie${i}.title\n\n` +
            `probe binary${i} binary using movie_director${i} {\n    basic "Is {director} the director of {title} ({year})?"\n}\n` +
            `rule same${i}(a: Movie${i}, b: Movie${i}) :- a.director = b.director, a != b\n    symmetric\n`;
    }
    return text;
}

const SNIPPETS = [
    ' really',
    'x',
    '\n',
    '\n\n',
    '// note\n',
    '/* c */',
    ' cap 5',
    ' symmetric',
    '"',
    '{',
    '}',
    'fd ',
    'relation R from movies { a: text key (a) }\n',
    'probe p binary using movie_director0 {\n    basic "Is {director} right?"\n}\n',
    'import "other.probe"\n',
    '    ',
    ',',
    ' as name',
    'rule ',
];

const broken = (t: string) => {
    const r = full(t);
    return r.parserErrors.length + r.lexerErrors.length > 0;
};

function edit(text: string, random: () => number): string {
    const at = Math.floor(random() * (text.length + 1));
    const kind = Math.floor(random() * 6);
    if (kind === 5) {
        // A name misspelt or mended somewhere (a relation's attribute, an fd's side, a template's placeholder): what
        // other declarations see changes.
        const words = ['director', 'directr', 'title', 'titel', 'year'];
        const word = words[Math.floor(random() * words.length)]!;
        const hits = [...text.matchAll(new RegExp(`\\b${word}\\b`, 'g'))];
        const hit = hits[Math.floor(random() * hits.length)];
        if (!hit) return text;
        const other = { director: 'directr', directr: 'director', title: 'titel', titel: 'title', year: 'yeer' }[word]!;
        return text.slice(0, hit.index) + other + text.slice(hit.index + word.length);
    }
    if (kind === 0) return text.slice(0, at) + SNIPPETS[Math.floor(random() * SNIPPETS.length)] + text.slice(at);
    if (kind === 1) return text.slice(0, at) + text.slice(Math.min(text.length, at + 1 + Math.floor(random() * 12)));
    if (kind === 2) {
        // A whole line moves, goes or doubles.
        const lines = text.split('\n');
        const i = Math.floor(random() * lines.length);
        const line = lines.splice(i, 1)[0]!;
        if (random() < 0.5) lines.splice(Math.floor(random() * lines.length), 0, line);
        return lines.join('\n');
    }
    if (kind === 3) {
        // Typing inside a template or a name: the most common edit.
        const word = text.indexOf('the director', at);
        return word < 0 ? text : `${text.slice(0, word)}the real director${text.slice(word + 'the director'.length)}`;
    }
    return (
        text.slice(0, at) +
        SNIPPETS[Math.floor(random() * SNIPPETS.length)] +
        text.slice(Math.min(text.length, at + Math.floor(random() * 6)))
    );
}

describe('an edit re-parses only the declarations it touched', () => {
    for (const [name, start, steps] of [
        ['the movie spec', MOVIE, 600],
        ['a generated spec of 25 blocks', generated(25), 200],
    ] as const) {
        it(`equals a full parse after each of ${steps} random edits of ${name}`, () => {
            const random = prng(29);
            let text = start;
            let current = full(text);
            let spliced = 0;
            for (let step = 0; step < steps; step++) {
                const next = edit(text, random);
                if (next === text) continue;
                const fresh = full(next);
                const incremental = spliceParse(current, next, full);
                if (incremental) {
                    spliced++;
                    assert.equal(shape(incremental), shape(fresh), `step ${step}: the spliced parse differs from a full parse`);
                    assert.equal(incremental.value.$cstNode!.root.fullText, next);
                }
                // Back to the last clean text after a breaking edit (a broken text is always parsed whole: the last test).
                if (fresh.lexerErrors.length + fresh.parserErrors.length > 0) {
                    assert.equal(incremental, undefined);
                    current = full(text);
                    continue;
                }
                current = incremental ?? fresh;
                text = next;
            }
            // Most edits that keep the text error-free are spliced.
            assert.ok(spliced > steps / 5, `spliced ${spliced} of ${steps}`);
        });
    }

    it('typing inside one declaration of a 2,000-line spec re-parses that declaration only', () => {
        let text = generated(130);
        let current = full(text);
        const before = current.value.$cstNode as CompositeCstNode;
        const untouched = before.content.find(c => !c.hidden && c.text.startsWith('relation Movie100'))!;
        for (let i = 0; i < 5; i++) {
            text = text.replace(
                /basic "Is \{director\}( really)* the director/,
                m => `${m.slice(0, -'the director'.length)}really the director`,
            );
            const next = spliceParse(current, text, full);
            assert.ok(next, `edit ${i} was spliced`);
            assert.equal(shape(next), shape(full(text)));
            current = next;
        }
        // The untouched declarations keep their nodes.
        assert.ok((current.value.$cstNode as CompositeCstNode).content.includes(untouched));
    });

    it('a document built edit by edit (re-parse, links, checks, spec model reused) ends as a fresh build of the same text', async () => {
        // The server's services over an in-memory workspace, edited as an editor does; and a fresh workspace each time.
        const live = createProbeServerServices(EmptyFileSystem);
        const uri = URI.parse('file:///mem/edited.probe');
        const texts = live.shared.workspace.TextDocuments!;
        let text = generated(12);
        texts.set(TextDocument.create(uri.toString(), 'probe', 1, text));
        const doc = live.shared.workspace.LangiumDocumentFactory.fromTextDocument(texts.get(uri.toString())!, uri);
        live.shared.workspace.LangiumDocuments.addDocument(doc);
        await live.shared.workspace.DocumentBuilder.build([doc], { validation: true });
        const outcome = (d: LangiumDocument) =>
            JSON.stringify({
                model: buildSpecModel([d]),
                diagnostics: (d.diagnostics ?? [])
                    .map(
                        x =>
                            `${x.range.start.line}:${x.range.start.character}-${x.range.end.line}:${x.range.end.character} ${x.severity} ${String(x.code)} ${x.message}`,
                    )
                    .sort(),
                links: AstUtils.streamAst(d.parseResult.value)
                    .flatMap(n => AstUtils.streamReferences(n))
                    .map(r => r.reference as Reference)
                    .map(
                        r =>
                            `${r.$refNode?.range.start.line}:${r.$refNode?.range.start.character} ${r.$refText} -> ${r.ref ? `${r.ref.$type}@${r.ref.$cstNode?.range.start.line} ${r.$nodeDescription?.path} ${r.$nodeDescription?.selectionSegment?.range.start.line}` : r.error?.message}`,
                    )
                    .toArray()
                    .sort(),
            });
        const random = prng(7);
        const fresh = createProbeServerServices(EmptyFileSystem);
        let spliced = 0;
        let clean = text;
        // First, edits whose effect reaches other declarations: an attribute renamed (the fd, key and templates of
        // its block now name what is not there), typing in one probe, the attribute mended.
        const fixed = [
            (t: string) =>
                t.replace(
                    'relation Movie3 from movies label "movie" {\n    title: text\n    year: int',
                    'relation Movie3 from movies label "movie" {\n    title: text\n    yeer: int',
                ),
            (t: string) =>
                t.replace(
                    'probe binary3 binary using movie_director3 {\n    basic "Is',
                    'probe binary3 binary using movie_director3 {\n    basic "Really, is',
                ),
            (t: string) => t.replace('yeer: int', 'year: int'),
        ];
        for (let step = 0; step < 80; step++) {
            // Mostly edits that keep the text clean (those are spliced); now and then one that breaks it, undone next.
            let next = step < fixed.length ? fixed[step]!(text) : broken(text) ? clean : edit(text, random);
            if (broken(next) && random() < 0.7) next = edit(text, random);
            if (broken(next) && random() < 0.7) continue;
            if (!broken(next)) clean = next;
            const before = live.shared.workspace.LangiumDocuments.getDocument(uri)!.parseResult.value;
            text = next;
            texts.set(TextDocument.create(uri.toString(), 'probe', step + 2, text));
            await live.shared.workspace.DocumentBuilder.update([uri], []);
            if (live.shared.workspace.LangiumDocuments.getDocument(uri)!.parseResult.value === before) spliced++;
            if (fresh.shared.workspace.LangiumDocuments.hasDocument(uri))
                await fresh.shared.workspace.DocumentBuilder.update([], [uri]);
            const other = fresh.shared.workspace.LangiumDocumentFactory.fromString(text, uri);
            fresh.shared.workspace.LangiumDocuments.addDocument(other);
            await fresh.shared.workspace.DocumentBuilder.build([other], { validation: true });
            assert.equal(outcome(live.shared.workspace.LangiumDocuments.getDocument(uri)!), outcome(other), `step ${step}`);
        }
        assert.ok(spliced >= 10, `spliced ${spliced}`);
    });

    it('loading a spec again after edits (check after an edit) gives what a fresh load gives', async () => {
        // One workspace kept across loads, as one CLI process or the extension host keeps it; a fresh one each time.
        const kept = createSpecServices();
        const file = path.resolve('/mem/check/spec.probe');
        const random = prng(11);
        let text = generated(8);
        let clean = text;
        const seen = (l: Awaited<ReturnType<typeof loadSpec>>) =>
            JSON.stringify({
                model: l.model,
                diagnostics: l.diagnostics
                    .map(d => `${d.range.start.line}:${d.range.start.character} ${d.code} ${d.message}`)
                    .sort(),
            });
        for (let step = 0; step < 40; step++) {
            text = broken(text) ? clean : edit(text, random);
            if (!broken(text)) clean = text;
            const again = await loadSpec(file, new Map([[file, text]]), kept);
            const fresh = await loadSpec(file, new Map([[file, text]]), createSpecServices());
            assert.equal(seen(again), seen(fresh), `step ${step}`);
        }
    });

    it('a text with errors before or after the edit is parsed whole', () => {
        const broken = full(`${MOVIE}\nrelation {\n`);
        assert.equal(spliceParse(broken, `${MOVIE}\nrelation X {\n`, full), undefined);
        const clean = full(MOVIE);
        assert.equal(spliceParse(clean, MOVIE.replace('relation Movie', 'relation Movie {{'), full), undefined);
    });
});
