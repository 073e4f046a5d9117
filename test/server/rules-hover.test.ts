// Hover on a rule (issue 14): how many facts it derives over the loaded data, and sample proofs.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { LangiumDocument } from 'langium';
import type { Hover, MarkupContent } from 'vscode-languageserver';
import { at, open, params, serverServices, type Services } from './support.js';

const hoverText = (h: Hover | undefined) => (h?.contents as MarkupContent | undefined)?.value ?? '';
const SPEC = path.resolve(import.meta.dirname, '../../examples/rules/rules.probe');

describe('hover on a rule', () => {
    let s: Services;
    let doc: LangiumDocument;
    before(async () => {
        s = serverServices();
        doc = await open(s, SPEC);
    });
    const hover = (needle: string, delta = 1) =>
        s.probe.lsp.HoverProvider!.getHoverContent(doc, { ...params(doc), position: at(doc, needle, delta) });

    it('the example has no errors', () => {
        assert.deepEqual(
            (doc.diagnostics ?? []).filter(d => d.severity === 1).map(d => d.message),
            [],
        );
    });

    it('counts the derived facts of a transitive rule and shows a proof', async () => {
        const text = hoverText(await hover('rule inside', 6));
        assert.match(text, /\*\*rule\*\* `inside\(a: Place, b: Place\)`/);
        assert.match(text, /derives 56 fact\(s\) over the loaded data/);
        assert.match(
            text,
            /```text\ninside\(Barcelona, Catalonia\) {2}⇐ inside\n {2}Place\.part_of\(Barcelona, Catalonia\) {2}\(data\)/,
        );
    });

    it("shows the FD negation's witness in the proof of a negated rule, anywhere on its lines", async () => {
        const text = hoverText(await hover('not plays_for(p, k)', 4));
        assert.match(text, /derives 23 fact\(s\)/);
        assert.match(text, /not_at\(E\. Hazard, Atlético de Madrid\)/);
    });
});
