/**
 * Stable question ids and content fingerprints, and the continuous-evaluation diff between generations.
 * An id hashes what defines a question (probe, kind, template text, the entity's key, variant, phrasing),
 * never file positions, so editing elsewhere in the spec or reordering rows keeps every id. The
 * fingerprint hashes what the question says and expects, so a data edit that changes a gold answer or a
 * keyword shows as "changed".
 */
import { hash } from 'node:crypto';
import type { Question } from './question.js';

const SEP = '\u001f';

function sha(text: string, hexChars: number): string {
    // One-shot hashing: several times cheaper per question than createHash().update().digest().
    return hash('sha256', text, 'hex').slice(0, hexChars);
}

/**
 * A fact's readable name and id: `Movie(Avatar, 2009).director` (the entity as the graph panel names it, then the
 * attribute) and 16 hex digits of sha256 over it. Neither depends on the value, the family, the run or the store.
 */
export function factName(
    relation: string,
    key: readonly string[],
    attribute: string,
    entity = entityName(relation, key),
): { id: string; label: string } {
    const label = `${entity}.${attribute}`;
    return { id: sha(label, 16), label };
}

/**
 * The entity part of a fact's name, `Movie(Avatar, 2009)`, which is also the graph's node id for the row: for a row's
 * several facts to join once (factName's `entity`). `joined`: the key already joined with ", " (the node's label).
 */
export function entityName(relation: string, key: readonly string[], joined = key.join(', ')): string {
    return `${relation}(${joined})`;
}

export interface IdParts {
    probe: string;
    kind: string;
    template: string;
    key: string[];
    variant: string;
    phrasing: string;
}

/** 16 hex digits (64 bits) of sha256 over the defining parts. */
export function questionId(p: IdParts): string {
    return idOf(idPrefix(p.probe, p.kind, p.template), p.key, idSuffix(p.variant, p.phrasing));
}

/**
 * The parts of a question id's text that do not depend on the row, for a generation to join once per probe and
 * template (before the key) and per variant and phrasing (after it): `idOf(idPrefix(…), key, idSuffix(…))` is
 * `questionId` of the same parts, without the parts object, the array and the join per question.
 */
export function idPrefix(probe: string, kind: string, template: string): string {
    return probe + SEP + SEP + kind + SEP + SEP + template + SEP + SEP;
}

export function idSuffix(variant: string, phrasing: string): string {
    return SEP + SEP + variant + SEP + SEP + phrasing;
}

export function idOf(prefix: string, key: readonly string[], suffix: string): string {
    let keyText = key.length ? key[0]! : '';
    for (let i = 1; i < key.length; i++) keyText += SEP + key[i]!;
    return sha(prefix + keyText + suffix, 16);
}

/**
 * A question group's id: the probe, the entity's key, the prompt variant and the family's group key, joined
 * rather than hashed (one per row; it reads in the store as what it is).
 */
export function groupId(probe: string, key: string[], variant: string, groupKey: string): string {
    return `${probe} · ${key.join(', ')} · ${variant} · ${groupKey}`;
}

/** 16 hex digits of sha256 over the asked content: messages, gold, keywords per hop, options. */
export function questionFingerprint(q: Pick<Question, 'messages' | 'gold' | 'keywords' | 'options'>): string {
    return sha(
        JSON.stringify([
            q.messages,
            q.gold,
            q.keywords.map(h => h.map(k => `${k.relation}.${k.attribute}=${k.value}`)),
            q.options ?? null,
        ]),
        16,
    );
}

export interface GenerationDiff {
    /** Ids present now and not before. */
    new: string[];
    /** Ids present before and not now. */
    removed: string[];
    /** Same id, different fingerprint: results of these questions are stale. */
    changed: string[];
    /** Same id and fingerprint: earlier results stay valid. */
    unchanged: number;
}

/**
 * Compares an earlier generation ({id, fingerprint} per question, e.g. from the store) with the current
 * questions (consumed once, streaming; only the earlier side is held in memory).
 */
export function diffGenerations(
    previous: Iterable<{ id: string; fingerprint: string }>,
    current: Iterable<Question | { id: string; fingerprint: string }>,
): GenerationDiff {
    const before = new Map<string, string>();
    for (const p of previous) before.set(p.id, p.fingerprint);
    const diff: GenerationDiff = { new: [], removed: [], changed: [], unchanged: 0 };
    const seen = new Set<string>();
    for (const q of current) {
        if (seen.has(q.id)) continue;
        seen.add(q.id);
        const fp = 'fingerprint' in q ? q.fingerprint : questionFingerprint(q);
        const old = before.get(q.id);
        if (old === undefined) diff.new.push(q.id);
        else if (old !== fp) diff.changed.push(q.id);
        else diff.unchanged++;
    }
    for (const id of before.keys()) if (!seen.has(id)) diff.removed.push(id);
    return diff;
}
