/**
 * Claim extraction by a configured model (issue 14, item 4, the optional path beside the pattern-based claims of
 * claims.ts): `extract_with MODEL` on a rule probe asks MODEL, in JSON mode, for the triples a rationale states;
 * they become claims about the proof's premises, checked like the pattern-based ones. An answer that is not the
 * JSON asked for leaves the pattern-based claims in place, and the check says why (RuleCheck.extraction).
 */
import type { ChatMessage } from '../../probes/question.js';
import type { HopVerdict } from '../../verify/types.js';
import { findWord, foldValue } from '../../verify/normalise.js';
import { jsonReply } from '../../verify/model-read-requests.js';
import type { Premise } from './questions.js';

export interface Triple {
    subject: string;
    relation: string;
    object: string;
}

const EXTRACT_SYSTEM =
    'You extract knowledge triples from a text. Reply with one JSON object and nothing else: ' +
    '{"triples": [{"subject": "…", "relation": "…", "object": "…"}]} — one triple per fact the text states, with the ' +
    'entities and values written as in the text. Leave out conclusions that are not facts.';

/** The extraction request for one rationale (the relation names of the proof help the model name relations alike). */
export function extractionMessages(rationale: string, relations: readonly string[]): ChatMessage[] {
    const hint = relations.length ? `\nRelations you may use: ${[...new Set(relations)].join(', ')}.` : '';
    return [
        { role: 'system', content: EXTRACT_SYSTEM },
        { role: 'user', content: `Text:\n"""\n${rationale}\n"""${hint}` },
    ];
}

/** The triples of an extraction answer, or why it is not the JSON asked for. */
export function parseTriples(text: string): Triple[] | string {
    const reply = jsonReply(text);
    if (typeof reply === 'string') return reply;
    const { json } = reply;
    const list = Array.isArray(json) ? json : (json as { triples?: unknown })?.triples;
    if (!Array.isArray(list)) return 'the JSON has no "triples" list';
    const out: Triple[] = [];
    for (const t of list) {
        const x = t as Record<string, unknown>;
        if (
            !x ||
            typeof x !== 'object' ||
            !['subject', 'relation', 'object'].every(k => typeof x[k] === 'string' || typeof x[k] === 'number')
        ) {
            return 'a triple lacks a subject, relation or object';
        }
        out.push({ subject: String(x.subject), relation: String(x.relation), object: String(x.object) });
    }
    return out;
}

type TripleStatus = 'supported' | 'contradicted' | 'unknown';
export interface TripleClaim {
    point: number;
    triple: Triple;
    premise?: number;
    status: TripleStatus;
    row?: { file: string; line: number };
}

const names = (text: string, forms: readonly string[]) => {
    const t = foldValue(text);
    return forms.some(f => {
        const n = foldValue(f);
        return n.length > 0 && (t === n || findWord(t, n) >= 0);
    });
};

/**
 * Each triple against the premises: it speaks about a premise when its subject names the premise's subject (or an
 * alias); its object naming the premise's value (or an alias) supports it; naming something else while its
 * relation names the premise's attribute (or the subject has one premise) contradicts it. Others are unknown.
 */
export function tripleClaims(
    triples: readonly Triple[],
    premises: readonly Premise[],
    hops: readonly HopVerdict[],
): TripleClaim[] {
    return triples.map((triple, i) => {
        const point = i + 1;
        const about = premises
            .map((p, j) => ({ p, j }))
            .filter(({ p }) => names(triple.subject, [p.subject, ...(p.forms?.subject ?? [])]));
        const right = about.find(({ p }) => names(triple.object, [p.value, ...(p.forms?.value ?? [])]));
        if (right) return { point, triple, premise: right.j, status: 'supported' };
        const rel = foldValue(triple.relation);
        const named = about.filter(({ p }) =>
            [p.attribute.replace(/_/g, ' '), p.label ?? ''].some(
                a => a && (rel.includes(foldValue(a)) || foldValue(a).includes(rel)),
            ),
        );
        const wrong = named.length ? named[0] : about.length === 1 ? about[0] : undefined;
        if (!wrong) return { point, triple, status: 'unknown' };
        const claim: TripleClaim = { point, triple, premise: wrong.j, status: 'contradicted' };
        const conflict = hops[wrong.j]?.keywords[0]?.conflict;
        if (conflict?.row && foldValue(conflict.value) === foldValue(triple.object)) claim.row = conflict.row;
        return claim;
    });
}
