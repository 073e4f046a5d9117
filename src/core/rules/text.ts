/**
 * How a fact reads for people (hovers, previews, questions): values with a composite key as "Avatar (2009)", a fact
 * as "colleague(Messi, Iniesta)".
 */
import { KEY_SEPARATOR, type Fact, type Value } from './ir.js';

/** How an entity or value of a fact reads in a question: a composite key as "Avatar (2009)". */
export function display(v: Value): string {
    const parts = String(v).split(KEY_SEPARATOR);
    return parts.length > 1 ? `${parts[0]} (${parts.slice(1).join(', ')})` : parts[0]!;
}

/** "colleague(Messi, Iniesta)" */
export function factText(f: Fact): string {
    return `${f.pred}(${f.args.map(display).join(', ')})`;
}
