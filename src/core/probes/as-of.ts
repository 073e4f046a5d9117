/**
 * Dated data (`as of 2019` on a source or relation, docs/probes.md): a gold computed from a snapshot is true at
 * the snapshot's time, not today, so questions built from dated rows ask in that time ("In 2019, is it true that
 * …?"), and verification classes a wrong answer that places its claim after that time as outdated
 * (src/core/verify/outdated.ts) rather than plainly wrong.
 *
 * A question whose template already says when (its text holds the date, as the ERBench Soccer templates' "in 2019"
 * do) is asked as written; it is still dated.
 */
import type { AsOfDecl, ProbeDecl } from '../spec/model.js';
import type { Problem } from '../errors.js';
import type { Item } from './plan.js';
import type { TemplateSlot } from './scope.js';

/** When a question's data was true, as its question carries it. */
export interface DatedAt {
    text: string;
    year: number;
}

/**
 * The time a probe's questions are dated: its first relation's `as of`, else the first of its other relations that
 * has one. Relations dated differently are a warning (the question can be in one time only).
 */
export function probeAsOf(slots: readonly TemplateSlot[], probe: ProbeDecl, problems: Problem[]): DatedAt | undefined {
    const dated = slots
        .map(s => ({ relation: s.relation.name, asOf: s.relation.asOf }))
        .filter((d): d is { relation: string; asOf: AsOfDecl } => d.asOf !== undefined);
    if (dated.length === 0) return undefined;
    const first = dated[0]!;
    const other = dated.find(d => d.asOf.year !== first.asOf.year);
    if (other) {
        problems.push({
            location: probe.loc,
            severity: 'warning',
            code: 'as-of-mixed',
            message: `${probe.name} reads ${first.relation} (as of ${first.asOf.text}) and ${other.relation} (as of ${other.asOf.text}): its questions are asked as of ${first.asOf.text}.`,
            remedy: `Give the relations one date, or probe them separately.`,
        });
    }
    return { text: first.asOf.text, year: first.asOf.year };
}

/** The time facts read from `relations` were true: the first dated one's (a rule question, by its premises' relations). */
export function relationsAsOf(relations: readonly { asOf?: AsOfDecl }[]): DatedAt | undefined {
    const at = relations.find(r => r.asOf !== undefined)?.asOf;
    return at ? { text: at.text, year: at.year } : undefined;
}

/** "In 2019, " for a year; "As of June 2019, " for a date. */
function lead(at: DatedAt): string {
    return at.text === String(at.year) ? `In ${at.year}, ` : `As of ${at.text}, `;
}

/**
 * The question asked in its time. `templates`: the texts it was rendered from; when one of them already names the
 * date the question is left as it is. A question opening with literal text (not a name from the data) is
 * lower-cased there ("In 2019, is there …"); one opening with a value ("Lionel Messi plays …") keeps its case.
 */
export function datedText(question: string, at: DatedAt, templates: readonly string[]): string {
    if (templates.some(t => t.includes(at.text))) return question;
    const opening = templates[0] ?? '';
    const word = /^\S+/.exec(question)?.[0] ?? '';
    const literal = opening !== '' && !opening.startsWith('{') && word !== word.toUpperCase();
    return lead(at) + (literal ? question.charAt(0).toLowerCase() + question.slice(1) : question);
}

/**
 * Dates an item in place: its question asked in that time (`datedText`), its id's template marked with the date (a
 * dated question is another question), and the date it carries (verification reads it).
 */
export function dateItem(item: Item, at: DatedAt | undefined, templates: readonly string[]): Item {
    if (!at) return item;
    item.question = datedText(item.question, at, templates);
    return markDated(item, at);
}

/** The item carries its date, and its id's template says it: the same words in another time are another question. */
export function markDated(item: Item, at: DatedAt | undefined): Item {
    if (!at) return item;
    item.template = `${item.template}\u0000as of ${at.text}`;
    item.asOf = at;
    return item;
}
