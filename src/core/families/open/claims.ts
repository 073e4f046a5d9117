/**
 * Atomic claims of an open answer, linked to the data (issue 17 step 4). The reading itself — claims, the shared
 * linker's mentions, short forms, masking, negation, relation words — is the reader's (reader/loose.ts); this
 * module only says what the neighbourhood's nodes are called: entities as labelled ("avatar, 2009"), as shown
 * ("Avatar (2009)") and by their first key value, values as written, plus alias forms.
 */
import {
    buildLooseLexicon,
    linkClaims,
    splitClaims,
    type LinkedClaim,
    type LooseLexicon,
    type LooseName,
} from '../../reader/index.js';
import type { ContextNode, StoredRelation } from './types.js';

export { linkClaims, splitClaims, type LinkedClaim };
export type Lexicon = LooseLexicon;

export function buildLexicon(
    nodes: ContextNode[],
    relations: StoredRelation[],
    aliases: (node: ContextNode) => string[] = () => [],
): Lexicon {
    const named: LooseName[] = nodes.map(n => {
        const names = [n.label, n.display ?? n.label];
        // "Avatar (2009)": the first key value alone names it too.
        if (n.entity && n.display && n.display !== n.label) {
            const first = n.display.slice(0, n.display.indexOf(' ('));
            if (first.replace(/[^\p{L}\p{N}]/gu, '').length >= 3) names.push(first);
        }
        return { id: n.id, type: n.type, entity: n.entity, names, aliases: aliases(n) };
    });
    return buildLooseLexicon(named, relations);
}
