import { DefaultTokenBuilder, type GrammarAST } from 'langium';
import type { TokenType, TokenVocabulary } from 'chevrotain';

/**
 * Keywords that users may also use as names (an attribute called `date`, `key`, `label`, a setting called
 * `seed` …). Each of these keyword tokens is put in the ID token's category, so that wherever the grammar
 * expects an ID it accepts them too; where a keyword itself is expected, the keyword alternative comes first.
 */
export const KEYWORDS_USABLE_AS_NAMES = new Set([
    'text',
    'int',
    'real',
    'bool',
    'date',
    'list',
    'key',
    'label',
    'unit',
    'table',
    'query',
    'csv',
    'sqlite',
    'postgres',
    'basic',
    'negated',
    'gold',
    'yes',
    'no',
    'stem',
    'option',
    'ask',
    'first',
    'random',
    'all',
    'seed',
    'quota',
    'variant',
    'probes',
    'models',
    'sample',
    'distinct',
    'lookup',
    'with',
    'relation',
    'rule',
    'not',
    'complete',
    'symmetric',
    'transitive',
    'inverse',
    'phrase',
    'cap',
    'during',
    'of',
    'known',
    'duplicates',
    'violations',
]);

export class ProbeTokenBuilder extends DefaultTokenBuilder {
    override buildTokens(grammar: GrammarAST.Grammar, options?: { caseInsensitive?: boolean }): TokenVocabulary {
        const tokens = super.buildTokens(grammar, options) as TokenType[];
        const id = tokens.find(t => t.name === 'ID');
        if (id) {
            for (const token of tokens) {
                if (KEYWORDS_USABLE_AS_NAMES.has(token.name)) token.CATEGORIES = [...(token.CATEGORIES ?? []), id];
            }
        }
        return tokens;
    }
}
