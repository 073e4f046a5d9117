import { AstUtils, CstUtils, type AstNode, type LangiumDocument } from 'langium';
import { DefaultCompletionProvider } from 'langium/lsp';
import { CompletionItemKind, CompletionList, type CompletionItem, type CompletionParams } from 'vscode-languageserver';
import { isModel, isProbe, isSource, isSuite } from '../../core/language/index.js';
import { probeKinds, settingChoices, settingNames } from '../../core/language/index.js';
import { templateScope } from '../../core/language/index.js';
import { TEMPLATE_FUNCTIONS } from '../../core/spec/index.js';
import type { ProbeServices } from '../services.js';
import type { SourceDecl } from '../../core/spec/index.js';
import type { SpecDataService } from '../data.js';

/** Reads a source's column names (the data layer's `readHeader`). */
export type HeaderReader = (source: SourceDecl) => Promise<string[]>;

/**
 * Langium's completion (keywords; relation, attribute, fd, model and probe names in context) plus two kinds
 * inside strings: source column names after `attribute: type = "`, and attribute names and functions after
 * `{` in a question template.
 */
export class ProbeCompletionProvider extends DefaultCompletionProvider {
    constructor(
        private readonly probeServices: ProbeServices,
        private readonly data: SpecDataService,
        private readonly readHeader: HeaderReader | undefined,
    ) {
        super(probeServices);
    }

    override async getCompletion(document: LangiumDocument, params: CompletionParams): Promise<CompletionList | undefined> {
        const text = document.textDocument.getText();
        const offset = document.textDocument.offsetAt(params.position);
        const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
        const before = text.slice(lineStart, offset);
        const column = /^\s*[\w]+\s*:\s*(?:list\s*<\s*\w+\s*>|\w+)\s*=\s*"([^"]*)$/.exec(before);
        if (column)
            return CompletionList.create(
                await this.columnItems(document, text.slice(0, offset), column[1]!.length, offset),
                false,
            );
        const template = /"[^"]*\{([\w.]*)$/.exec(before);
        if (template && !/\}[^{]*$/.test(before.slice(before.lastIndexOf('"'))))
            return CompletionList.create(this.templateItems(document, offset, template[1]!.length), false);
        const list = await super.getCompletion(document, params);
        // `probe NAME ` then the kind: every registered family's (the registry is the one list of kinds).
        const kind = /^\s*probe\s+\w+\s+(\w*)$/.exec(before);
        if (kind)
            return CompletionList.create([...this.kindItems(document, offset, kind[1]!.length), ...(list?.items ?? [])], false);
        const value = /^\s*(\w+)\s+(?:\[(?:[^\]]*,)?\s*)?(\w*)$/.exec(before);
        const extra = /^\s*(\w*)$/.test(before)
            ? this.settingItems(document, offset)
            : value
              ? this.valueItems(document, offset, value[1]!, value[2]!.length)
              : [];
        if (extra.length === 0 || !list) return list;
        const known = new Set(list.items.map(i => i.label));
        return CompletionList.create([...list.items, ...extra.filter(i => !known.has(i.label))], list.isIncomplete);
    }

    /** The source, model, probe or suite block the cursor is inside (the last token before it tells which). */
    private blockAt(document: LangiumDocument, offset: number): AstNode | undefined {
        const root = document.parseResult.value.$cstNode;
        // Whitespace is not in the syntax tree: look at the last token before the cursor.
        const previous = document.textDocument.getText().slice(0, offset).trimEnd().length - 1;
        const leaf = root && previous >= 0 ? CstUtils.findLeafNodeAtOffset(root, previous) : undefined;
        const block =
            leaf && AstUtils.getContainerOfType(leaf.astNode, n => isSource(n) || isModel(n) || isProbe(n) || isSuite(n));
        if (!block || !block.$cstNode || offset <= block.$cstNode.offset || offset >= block.$cstNode.end) return undefined;
        return block;
    }

    private kindItems(document: LangiumDocument, offset: number, typed: number): CompletionItem[] {
        const range = { start: document.textDocument.positionAt(offset - typed), end: document.textDocument.positionAt(offset) };
        return probeKinds().map(k => ({
            label: k.kind,
            kind: CompletionItemKind.EnumMember,
            detail: 'probe kind',
            documentation: k.docs ? `${k.title} (docs/${k.docs})` : k.title,
            textEdit: { range, newText: k.kind },
        }));
    }

    /** At the start of a line inside a block: the settings that block knows. */
    private settingItems(document: LangiumDocument, offset: number): CompletionItem[] {
        const block = this.blockAt(document, offset);
        return block
            ? settingNames(block).map(name => ({ label: name, kind: CompletionItemKind.Property, detail: 'setting' }))
            : [];
    }

    /** After a setting's name (or inside its list): the values it takes, as the engine lists them. */
    private valueItems(document: LangiumDocument, offset: number, name: string, typed: number): CompletionItem[] {
        const block = this.blockAt(document, offset);
        if (!block) return [];
        const range = { start: document.textDocument.positionAt(offset - typed), end: document.textDocument.positionAt(offset) };
        return settingChoices(block, name).map((c, i) => ({
            label: c.value,
            kind: CompletionItemKind.Value,
            detail: `${name} value`,
            documentation: c.doc,
            sortText: String(i).padStart(3, '0'),
            textEdit: { range, newText: c.text },
        }));
    }

    private async columnItems(
        document: LangiumDocument,
        textBefore: string,
        typed: number,
        offset: number,
    ): Promise<CompletionItem[]> {
        // Found in the text rather than the AST: the string being typed is unclosed, so the parse around it is broken.
        const relations = [...textBefore.matchAll(/\brelation\s+\w+\s+from\s+(\w+)/g)];
        const sourceName = relations.at(-1)?.[1];
        const loaded = sourceName && this.readHeader ? await this.data.forDocument(document) : undefined;
        const source = loaded?.spec.sources.find(s => s.name === sourceName);
        if (!source || !this.readHeader) return [];
        let header: string[] = [];
        try {
            header = await this.readHeader(source);
        } catch {
            return [];
        }
        const range = { start: document.textDocument.positionAt(offset - typed), end: document.textDocument.positionAt(offset) };
        return header.map((name, i) => ({
            label: name === '' ? '(unnamed column)' : name,
            kind: CompletionItemKind.Field,
            detail: `column ${i + 1} of ${source.name}`,
            sortText: String(i).padStart(4, '0'),
            textEdit: { range, newText: name },
        }));
    }

    private templateItems(document: LangiumDocument, offset: number, typed: number): CompletionItem[] {
        const root = document.parseResult.value.$cstNode;
        const leaf = root && CstUtils.findLeafNodeAtOffset(root, Math.max(0, offset - 1));
        const probe = leaf && AstUtils.getContainerOfType(leaf.astNode, isProbe);
        const range = { start: document.textDocument.positionAt(offset - typed), end: document.textDocument.positionAt(offset) };
        const items: CompletionItem[] = [];
        if (probe) {
            const scope = templateScope(probe, this.probeServices);
            for (const r of scope.unqualified)
                for (const a of r.attributes)
                    items.push({
                        label: a.name,
                        kind: CompletionItemKind.Field,
                        detail: `${r.name}.${a.name}`,
                        textEdit: { range, newText: a.name },
                    });
            for (const r of scope.qualified.filter(r => !scope.unqualified.includes(r))) {
                for (const a of r.attributes)
                    items.push({
                        label: `${r.name}.${a.name}`,
                        kind: CompletionItemKind.Field,
                        detail: 'joined by an fk',
                        textEdit: { range, newText: `${r.name}.${a.name}` },
                    });
            }
        }
        for (const [name, fn] of Object.entries(TEMPLATE_FUNCTIONS))
            items.push({
                label: name,
                kind: CompletionItemKind.Function,
                detail: fn.doc,
                textEdit: { range, newText: `${name}(` },
            });
        return items;
    }
}
