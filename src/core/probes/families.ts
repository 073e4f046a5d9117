/**
 * The probe-family registry: every kind the spec language knows, one `ProbeFamily` each. The built-in map is
 * typed so the compiler demands every hook of every family; `familyOf` is the only way any room or face gets
 * at kind-specific behaviour. An unknown kind is an error, never a default.
 */
import type { FamilySetting, ProbeFamily } from './family.js';
import { binaryFamily } from '../families/binary/family.js';
import { choiceFamily } from '../families/choice/family.js';
import { pathFamily } from '../families/path/family.js';
import { knowsFamily } from '../families/knows/family.js';
import { statementFamily } from '../families/statement/family.js';
import { evidenceFamily } from '../families/evidence/family.js';
import { openFamily } from '../families/open/family.js';
import { ruleFamily } from '../families/rule/family.js';

export const BUILTIN_FAMILIES = {
    binary: binaryFamily,
    choice: choiceFamily,
    path: pathFamily,
    knows: knowsFamily,
    statement: statementFamily,
    evidence: evidenceFamily,
    open: openFamily,
    rule: ruleFamily,
} as const satisfies Record<string, ProbeFamily>;

export type BuiltinKind = keyof typeof BUILTIN_FAMILIES;

const registry = new Map<string, ProbeFamily>(Object.entries(BUILTIN_FAMILIES));
for (const [key, family] of registry) if (family.kind !== key) throw new Error(`probe family ${family.kind} is registered as ${key}`);

/** Thrown when a question or probe names a kind no family is registered for (a spec validated first never does). */
export class UnknownKindError extends Error {
    readonly code = 'unknown-probe-kind';
    constructor(readonly kind: string) {
        super(`No probe family "${kind}"; the known kinds are ${familyKinds().join(', ')}.`);
    }
}

/** The family of a kind; throws `UnknownKindError` for a kind nobody registered. */
export function familyOf(kind: string): ProbeFamily {
    const family = registry.get(kind);
    if (!family) throw new UnknownKindError(kind);
    return family;
}

export function findFamily(kind: string): ProbeFamily | undefined {
    return registry.get(kind);
}

export function familyKinds(): string[] {
    return [...registry.keys()];
}

/**
 * Adds a family at run time (an embedding tool's own kind, a test's fixture family). Its kind must be new.
 * Returns a function that removes it again.
 */
export function registerFamily(family: ProbeFamily): () => void {
    if (registry.has(family.kind)) throw new Error(`a probe family "${family.kind}" is already registered`);
    registry.set(family.kind, family);
    return () => { if (registry.get(family.kind) === family) registry.delete(family.kind); };
}

/** Settings every probe reads, whatever its family (src/core/probes/generate.ts). */
export const COMMON_PROBE_SETTINGS: readonly FamilySetting[] = [
    { name: 'limit', type: 'integer', min: 1, doc: 'The most rows this probe asks about, whatever the suite samples.' },
];

/** The settings a probe of this kind reads: the common ones and its family's; undefined for an unknown kind. */
export function probeSettings(kind: string): readonly FamilySetting[] | undefined {
    const family = registry.get(kind);
    return family ? [...COMMON_PROBE_SETTINGS, ...family.settings] : undefined;
}

