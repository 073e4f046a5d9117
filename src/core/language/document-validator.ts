import {
    AstUtils,
    DefaultDocumentValidator,
    interruptAndCheck,
    URI,
    type AstNode,
    type DiagnosticInfo,
    type LangiumCoreServices,
    type LangiumDocument,
    type MultiReference,
    type Reference,
    type ValidationAcceptor,
    type ValidationOptions,
} from 'langium';
import type { Diagnostic } from 'vscode-languageserver-types';
import { Cancellation as CancellationNs, type Cancellation } from 'langium';
import {
    isAttributePath,
    isAttributeTuple,
    isFd,
    isImport,
    isLookup,
    isOption,
    isProbe,
    isSpec,
    isSuite,
    type Spec,
} from './generated/ast.js';
import { importedDocuments } from './scope.js';
import type { RecoveredParse } from './parse-errors.js';
type CancellationToken = Cancellation.CancellationToken;

/** A declaration's diagnostics from its last validation, and what they were computed against. */
interface DeclarationMemo {
    /** The declaration's context: the text of everything but probes and suites in its file, and of every imported file. */
    context: string;
    categories: string;
    /** The line the declaration started on then. */
    line: number;
    diagnostics: Diagnostic[];
}

/** A document's last context, and the nodes it was made from (the same nodes make the same context). */
interface ContextMemo {
    parts: unknown[];
    text: string;
}

/** Our codes for Langium's built-in diagnostic kinds, so every diagnostic a user sees has a code. */
const BUILT_IN_CODES: Record<string, string> = {
    'lexing-error': 'syntax',
    'parsing-error': 'syntax',
    'linking-error': 'unresolved-name',
};

/**
 * Langium's document validator with three changes: every diagnostic carries a code (built-in ones get
 * `syntax` / `unresolved-name`), unresolved names carry the suggested name for the quick fix, and a top-level
 * declaration whose text and context did not change keeps its diagnostics from the last validation (moved with
 * its line) instead of being checked again: after typing in one probe of a 2,000-line spec, one probe is checked.
 * Faces may add diagnostics (the language server adds the data checks) by overriding `moreDiagnostics`.
 */
export class ProbeDocumentValidator extends DefaultDocumentValidator {
    /** Per declaration node (an edit re-parses a few; the rest are the same nodes, incremental.ts). */
    private readonly memos = new WeakMap<AstNode, DeclarationMemo>();
    private readonly contexts = new Map<string, ContextMemo>();
    private readonly documents: LangiumCoreServices['shared']['workspace']['LangiumDocuments'];

    constructor(services: LangiumCoreServices) {
        super(services);
        this.documents = services.shared.workspace.LangiumDocuments;
    }

    /**
     * The checks of the spec node, then each declaration's, reused when its text and its context are those of the
     * last validation. A declaration's checks read only itself and what it references: a probe its target and
     * relations, a relation its source, an fd its relation; none reads a probe or a suite. So the context is
     * everything but probes and suites (here and in every imported file). Imports (their files) and suites (they
     * list probes) are always checked; so is the spec node (unique names, rules over all declarations).
     */
    override async validateAst(
        root: AstNode,
        options: ValidationOptions,
        cancelToken?: CancellationToken,
    ): Promise<Diagnostic[]> {
        if (!isSpec(root)) return super.validateAst(root, options, cancelToken);
        const items: Diagnostic[] = [];
        const acceptor: ValidationAcceptor = <N extends AstNode>(
            severity: 'error' | 'warning' | 'info' | 'hint',
            message: string,
            info: DiagnosticInfo<N>,
        ) => {
            items.push(this.toDiagnostic(severity, message, info));
        };
        await this.validateAstBefore(root, options, acceptor, cancelToken);
        await this.check(root, options, acceptor, cancelToken);
        const context = this.contextOf(root);
        const categories = (options.categories ?? []).join(',');
        for (const declaration of AstUtils.streamContents(root)) {
            // Where the declaration starts, found only when it has diagnostics to place: most have none, and
            // measuring every declaration an edit moved was a good part of an edit's garbage.
            const lineOf = () => declaration.$cstNode?.range.start.line ?? 0;
            const known = this.memos.get(declaration);
            // The same string object when the context is unchanged, so this compares pointers.
            if (known && known.context === context && known.categories === categories) {
                if (known.diagnostics.length > 0) {
                    const line = lineOf();
                    items.push(...known.diagnostics.map(d => moved(d, line - known.line)));
                }
                continue;
            }
            const start = items.length;
            for (const node of AstUtils.streamAst(declaration)) await this.check(node, options, acceptor, cancelToken);
            const diagnostics = items.slice(start);
            if (!isImport(declaration) && !isSuite(declaration))
                this.memos.set(declaration, { context, categories, line: diagnostics.length > 0 ? lineOf() : 0, diagnostics });
        }
        await this.validateAstAfter(root, options, acceptor, cancelToken);
        return items;
    }

    /** What a declaration's checks may read besides itself: the non-probe, non-suite declarations here, and every imported file. */
    private contextOf(root: Spec): string {
        const document = AstUtils.getDocument(root);
        const uri = document.uri.toString();
        const parts: unknown[] = root.elements.filter(d => !isProbe(d) && !isSuite(d));
        const imported = [...importedDocuments(document, this.documents)]
            .filter(u => u !== uri)
            .map(u => this.documents.getDocument(URI.parse(u)));
        // An imported file's text, not its tree: an edit may re-parse part of a tree and keep its root node.
        parts.push(...imported.map(d => d?.parseResult.value.$cstNode?.root.fullText));
        const last = this.contexts.get(uri);
        if (last && last.parts.length === parts.length && last.parts.every((p, i) => p === parts[i])) return last.text;
        const text = [
            ...root.elements.filter(d => !isProbe(d) && !isSuite(d)).map(d => d.$cstNode?.text ?? ''),
            ...imported.map(d => `${d?.uri.toString()}\u0001${d?.parseResult.value.$cstNode?.root.fullText ?? ''}`),
        ].join('\u0000');
        this.contexts.set(uri, { parts, text: last?.text === text ? last.text : text });
        return this.contexts.get(uri)!.text;
    }

    /** One node's own checks (not its children's), as Langium runs them. */
    private async check(
        node: AstNode,
        options: ValidationOptions,
        acceptor: ValidationAcceptor,
        cancelToken?: CancellationToken,
    ): Promise<void> {
        if (cancelToken) await interruptAndCheck(cancelToken);
        for (const check of this.validationRegistry.getChecks(node.$type, options.categories))
            await check(node, acceptor, cancelToken ?? CancellationNs.CancellationToken.None);
    }

    override async validateDocument(
        document: LangiumDocument,
        options: ValidationOptions = {},
        cancelToken?: CancellationToken,
    ): Promise<Diagnostic[]> {
        const diagnostics = await super.validateDocument(document, options, cancelToken);
        for (const d of diagnostics) {
            if (d.code === undefined) {
                const builtIn = (d.data as { code?: string } | undefined)?.code;
                d.code = (builtIn && BUILT_IN_CODES[builtIn]) ?? builtIn ?? 'syntax';
            }
        }
        const kept = withoutFollowOnsOfBrokenDeclarations(document, diagnostics);
        // Not tied to the 'slow' category: the language server validates with built-in + fast only, and data
        // diagnostics must appear while typing (the data layer's cache keeps them cheap).
        kept.push(...(await this.moreDiagnostics(document, kept, cancelToken)));
        return kept;
    }

    protected override processLinkingErrors(
        document: LangiumDocument,
        diagnostics: Diagnostic[],
        options: ValidationOptions,
    ): void {
        const before = diagnostics.length;
        super.processLinkingErrors(document, diagnostics, options);
        // Same order as document.references: copy our suggestion into each new diagnostic's data.
        const broken = document.references.filter(r => r.error);
        const errors = broken.map(r => r.error as unknown as { data?: { suggestion?: string; kind?: string } });
        const added = diagnostics.splice(before);
        if (added.length !== broken.length) {
            diagnostics.push(...added);
            return;
        }
        added.forEach((d, i) => {
            // An attribute looked up in a relation whose own name is unknown: that name is the one error (issue 36 item 9).
            if (inUnknownRelation(broken[i]!)) return;
            const extra = errors[i]?.data;
            if (extra) d.data = { ...(d.data as object), ...extra };
            diagnostics.push(d);
        });
    }

    /** Diagnostics beyond the language's own (e.g. the data checks in the language server). */
    protected async moreDiagnostics(
        _document: LangiumDocument,
        _language: Diagnostic[],
        _cancelToken?: CancellationToken,
    ): Promise<Diagnostic[]> {
        return [];
    }
}

/** A diagnostic moved down (or up) by `lines`. */
function moved(d: Diagnostic, lines: number): Diagnostic {
    if (lines === 0) return d;
    return {
        ...d,
        range: {
            start: { line: d.range.start.line + lines, character: d.range.start.character },
            end: { line: d.range.end.line + lines, character: d.range.end.character },
        },
    };
}

/**
 * A declaration with a syntax error reports that error only: what else is found inside it follows from the error
 * (a half-typed `using` has no FD yet), and so does every "unknown name" of a declaration the parser could not read.
 */
function withoutFollowOnsOfBrokenDeclarations(document: LangiumDocument, diagnostics: Diagnostic[]): Diagnostic[] {
    const broken = (document.parseResult as RecoveredParse).broken ?? [];
    if (broken.length === 0) return [...diagnostics];
    const text = document.textDocument;
    const gone = new Set(broken.filter(b => b.blanked && b.name).map(b => b.name!));
    const reported = new Set<(typeof broken)[number]>();
    // The parser's error of each broken declaration comes first (lexing errors, e.g. a stray character, after it).
    const ordered = [...diagnostics].sort(
        (a, b) => Number(b.data?.code === 'parsing-error') - Number(a.data?.code === 'parsing-error'),
    );
    const kept = new Set(
        ordered.filter(d => {
            const at = text.offsetAt(d.range.start);
            const within = broken.find(b => b.start <= at && at < b.end);
            if (!within) return !(d.code === 'unresolved-name' && gone.has(text.getText(d.range)));
            if (d.code !== 'syntax' || reported.has(within)) return false;
            reported.add(within);
            return true;
        }),
    );
    return diagnostics.filter(d => kept.has(d));
}

/** Whether `ref` names an attribute of a relation (or FD) that is itself an unresolved name: its error follows from that one. */
function inUnknownRelation(ref: Reference | MultiReference): boolean {
    const node = ref.$refNode?.astNode;
    if (!node) return false;
    const unknown = (r: Reference | undefined) => r !== undefined && r !== ref && r.ref === undefined;
    if (isFd(node) || isAttributeTuple(node) || isAttributePath(node)) return unknown(node.relation);
    if (isLookup(node)) return unknown(node.key?.relation);
    if (isOption(node) && isProbe(node.$container)) {
        const fd = node.$container.fd;
        return unknown(fd) || (isFd(fd?.ref) && unknown(fd.ref.relation));
    }
    return false;
}
