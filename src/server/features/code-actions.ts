import { AstUtils, CstUtils, GrammarUtils, URI, type LangiumDocument } from 'langium';
import type { CodeActionProvider } from 'langium/lsp';
import { CodeActionKind, type CodeAction, type CodeActionParams, type Command, type Diagnostic } from 'vscode-languageserver';
import { isAttribute, isPhrasing, isRelation, isSetting } from '../../core/language/index.js';
import { suggestFds } from '../../core/schema/index.js';
import type { SpecDataService } from '../data.js';
import { closest } from '../../core/language/index.js';
import { OPEN_DATA_ROW_COMMAND, type OpenDataRowArguments } from '../../protocol/lsp.js';

/** Diagnostic codes whose fix is "replace the flagged text with the suggested name". */
const RENAME_CODES = new Set([
    'unresolved-name',
    'unknown-setting',
    'unknown-provider',
    'unknown-normaliser',
    'unknown-variant',
    'unknown-attribute',
    'unknown-function',
]);
const MAX_ROW_ACTIONS = 10;

interface DiagnosticData {
    suggestion?: string;
    columns?: string[];
    rows?: { file: string; line: number }[];
}

export class ProbeCodeActionProvider implements CodeActionProvider {
    constructor(private readonly data?: SpecDataService) {}

    async getCodeActions(document: LangiumDocument, params: CodeActionParams): Promise<Array<Command | CodeAction>> {
        const fixes = params.context.diagnostics.flatMap(d => codeActionsFor(document, d));
        const wanted = params.context.only === undefined || params.context.only.some(k => CodeActionKind.Refactor.startsWith(k));
        return wanted && this.data ? [...fixes, ...(await this.fdActions(document, params))] : fixes;
    }

    /**
     * On a relation: "add fd …" for each FD its loaded rows hold that the spec does not declare, found by the
     * engine's FD discovery (core/schema/suggest-fds.ts); the declaration goes on the line after the relation.
     */
    private async fdActions(document: LangiumDocument, params: CodeActionParams): Promise<CodeAction[]> {
        const root = document.parseResult.value.$cstNode;
        const leaf = root && CstUtils.findLeafNodeAtOffset(root, document.textDocument.offsetAt(params.range.start));
        const relation = leaf && AstUtils.getContainerOfType(leaf.astNode, isRelation);
        if (!relation?.name || !relation.$cstNode) return [];
        const loaded = await this.data!.forDocument(document);
        const table = loaded?.data.tables.get(relation.name);
        if (!loaded || !table || table.rowCount === 0) return [];
        const end = relation.$cstNode.range.end;
        const uri = document.uri.toString();
        return (await suggestFds(loaded.spec, relation.name, table)).suggestions.map(s => ({
            title: s.title,
            kind: CodeActionKind.Refactor,
            edit: { changes: { [uri]: [{ range: { start: end, end }, newText: `\n${s.text}` }] } },
        }));
    }
}

/** The quick fixes for one diagnostic. Pure: depends only on the document and the diagnostic (its code and data). */
export function codeActionsFor(document: LangiumDocument, diagnostic: Diagnostic): CodeAction[] {
    const data = (diagnostic.data ?? {}) as DiagnosticData;
    const code = String(diagnostic.code ?? '');
    const uri = document.uri.toString();
    const edit = (title: string, range: Diagnostic['range'], newText: string, preferred = true): CodeAction => ({
        title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: preferred,
        edit: { changes: { [uri]: [{ range, newText }] } },
    });
    if (RENAME_CODES.has(code)) {
        return data.suggestion ? [edit(`Change to '${data.suggestion}'`, diagnostic.range, data.suggestion)] : [];
    }
    if (code === 'missing-column' && data.columns?.length) return missingColumnFix(document, diagnostic, data.columns, edit);
    // fd-violated, and any other data diagnostic that names rows (duplicate keys, dangling fks, bad values).
    if (data.rows?.length) {
        const what = code === 'fd-violated' ? 'conflicting row' : 'row';
        return data.rows.slice(0, MAX_ROW_ACTIONS).map(row => ({
            title: `Open the ${what} ${row.file.slice(row.file.lastIndexOf('/') + 1)}:${row.line}`,
            kind: CodeActionKind.QuickFix,
            diagnostics: [diagnostic],
            command: {
                title: 'Open the conflicting row',
                command: OPEN_DATA_ROW_COMMAND,
                arguments: [URI.file(row.file).toString(), row.line] satisfies OpenDataRowArguments,
            },
        }));
    }
    const node = nodeAt(document, diagnostic);
    if (code === 'secret-in-spec' && node && isSetting(node) && node.$cstNode) {
        const range = node.$cstNode.range;
        return [
            edit('Replace with key_env "OPENAI_API_KEY" (then set that environment variable)', range, 'key_env "OPENAI_API_KEY"'),
        ];
    }
    if (code === 'phrasing-needs-gold' && node && isPhrasing(node)) {
        const name = GrammarUtils.findNodeForProperty(node.$cstNode, 'name');
        if (name)
            return [
                edit('Add gold yes', { start: name.range.end, end: name.range.end }, ' gold yes'),
                edit('Add gold no', { start: name.range.end, end: name.range.end }, ' gold no', false),
            ];
    }
    return [];
}

function nodeAt(document: LangiumDocument, diagnostic: Diagnostic) {
    const root = document.parseResult.value.$cstNode;
    const leaf = root && CstUtils.findLeafNodeAtOffset(root, document.textDocument.offsetAt(diagnostic.range.start));
    return leaf?.astNode;
}

type Edit = (title: string, range: Diagnostic['range'], newText: string) => CodeAction;

/** Points the attribute at the real column closest to the one it names (or to its own name when unmapped). */
function missingColumnFix(document: LangiumDocument, diagnostic: Diagnostic, columns: string[], edit: Edit): CodeAction[] {
    const leaf = nodeAt(document, diagnostic);
    const attribute = leaf && AstUtils.getContainerOfType(leaf, isAttribute);
    if (!attribute) return [];
    const wanted = attribute.column ?? attribute.name;
    const best = closest(wanted, columns) ?? closest(attribute.name, columns);
    if (best === undefined) return [];
    const column = GrammarUtils.findNodeForProperty(attribute.$cstNode, 'column');
    const quoted = JSON.stringify(best);
    if (column) return [edit(`Use column '${best}'`, column.range, quoted)];
    const type = GrammarUtils.findNodeForProperty(attribute.$cstNode, 'type');
    return type ? [edit(`Map to column '${best}'`, { start: type.range.end, end: type.range.end }, ` = ${quoted}`)] : [];
}
