import { DefaultDocumentValidator, type LangiumDocument, type ValidationOptions } from 'langium';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { Cancellation } from 'langium';
import type { RecoveredParse } from './parse-errors.js';
type CancellationToken = Cancellation.CancellationToken;

/** Our codes for Langium's built-in diagnostic kinds, so every diagnostic a user sees has a code. */
const BUILT_IN_CODES: Record<string, string> = {
    'lexing-error': 'syntax', 'parsing-error': 'syntax', 'linking-error': 'unresolved-name',
};

/**
 * Langium's document validator with two changes: every diagnostic carries a code (built-in ones get
 * `syntax` / `unresolved-name`), and unresolved names carry the suggested name for the quick fix.
 * Faces may add diagnostics (the language server adds the data checks) by overriding `moreDiagnostics`.
 */
export class ProbeDocumentValidator extends DefaultDocumentValidator {
    override async validateDocument(document: LangiumDocument, options: ValidationOptions = {}, cancelToken?: CancellationToken): Promise<Diagnostic[]> {
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
        kept.push(...await this.moreDiagnostics(document, kept, cancelToken));
        return kept;
    }

    protected override processLinkingErrors(document: LangiumDocument, diagnostics: Diagnostic[], options: ValidationOptions): void {
        const before = diagnostics.length;
        super.processLinkingErrors(document, diagnostics, options);
        // Same order as document.references: copy our suggestion into each new diagnostic's data.
        const errors = document.references.filter(r => r.error).map(r => r.error as unknown as { data?: { suggestion?: string; kind?: string } });
        for (let i = before; i < diagnostics.length; i++) {
            const extra = errors[i - before]?.data;
            if (extra) diagnostics[i]!.data = { ...(diagnostics[i]!.data as object), ...extra };
        }
    }

    /** Diagnostics beyond the language's own (e.g. the data checks in the language server). */
    protected async moreDiagnostics(_document: LangiumDocument, _language: Diagnostic[], _cancelToken?: CancellationToken): Promise<Diagnostic[]> {
        return [];
    }
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
    const ordered = [...diagnostics].sort((a, b) => Number(b.data?.code === 'parsing-error') - Number(a.data?.code === 'parsing-error'));
    const kept = new Set(ordered.filter(d => {
        const at = text.offsetAt(d.range.start);
        const within = broken.find(b => b.start <= at && at < b.end);
        if (!within) return !(d.code === 'unresolved-name' && gone.has(text.getText(d.range)));
        if (d.code !== 'syntax' || reported.has(within)) return false;
        reported.add(within);
        return true;
    }));
    return diagnostics.filter(d => kept.has(d));
}
