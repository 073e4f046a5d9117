import { DefaultLinker, type AstNodeDescription, type LinkingError, type ReferenceInfo } from 'langium';
import { closest } from './validation/suggest.js';

/** What the user calls each kind of thing a reference can name. */
export const KIND_WORDS: Record<string, string> = {
    Source: 'source', Relation: 'relation', Attribute: 'attribute', Fd: 'fd', Fk: 'fk', Probe: 'probe', Model: 'model', Suite: 'suite',
    Rule: 'rule', UsingTarget: 'fd or rule',
};

/** Data attached to an unresolved-name diagnostic so a quick fix can offer the suggestion. */
export interface UnresolvedNameData { code: 'linking-error'; refText: string; suggestion?: string; kind: string }

/**
 * Names the kind of thing that could not be found and suggests the closest visible name, because
 * Langium's default ("Could not resolve reference to Attribute named 'x'") tells the user neither.
 */
export class ProbeLinker extends DefaultLinker {
    protected override createLinkingError(refInfo: ReferenceInfo, targetDescription?: AstNodeDescription): LinkingError {
        const base = super.createLinkingError(refInfo, targetDescription);
        if (targetDescription) return base;
        const type = this.reflection.getReferenceType(refInfo);
        const kind = KIND_WORDS[type] ?? type.toLowerCase();
        const refText = refInfo.reference.$refText;
        let names: string[] = [];
        try {
            names = this.scopeProvider.getScope(refInfo).getAllElements().map(d => d.name).toArray();
        } catch {
            // A scope that cannot be computed (e.g. its relation is itself unresolved) has no suggestions.
        }
        const suggestion = closest(refText, names);
        const where = type === 'Attribute' ? attributeContext(refInfo) : '';
        const message = `Unknown ${kind} '${refText}'${where}.` + (suggestion ? ` Did you mean '${suggestion}'?`
            : names.length > 0 && names.length <= 8 ? ` Known ${kind}s: ${names.join(', ')}.` : names.length === 0 ? ` No ${kind}s are declared here${type === 'Attribute' ? '' : ' or in imported files'}.` : '');
        return { ...base, message, data: { suggestion, kind } } as LinkingError;
    }
}

function attributeContext(refInfo: ReferenceInfo): string {
    const rel = (refInfo.container as { relation?: { $refText?: string; ref?: { name: string } } }).relation;
    const name = rel?.ref?.name ?? rel?.$refText;
    return name ? ` in relation ${name}` : '';
}
