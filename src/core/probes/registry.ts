/**
 * The probe-family registry: every kind the spec language knows, one `ProbeFamily` each (a core and the
 * capabilities it has: src/core/probes/contract/). The built-in map is typed so the compiler checks every family's
 * core and each capability it declares. `coreOf` and `capabilityOf` are the only ways any room or face gets at
 * kind-specific behaviour. An unknown kind is an error, never a default.
 */
import type { Capability, ProbeFamily } from './contract/family.js';
import type { FamilyCore, GroupRelation } from './contract/core.js';
import type { SimulatorRate } from './contract/simulator.js';
import type { ModelStepRun } from './contract/model-steps.js';
import type { SettingDecl } from '../spec/model.js';
import { PROBE_SETTINGS } from './settings.js';
import { binaryFamily } from '../families/binary/family.js';
import { choiceFamily } from '../families/choice/family.js';
import { pathFamily } from '../families/path/family.js';
import { knowsFamily } from '../families/knows/family.js';
import { statementFamily } from '../families/statement/family.js';
import { evidenceFamily } from '../families/evidence/family.js';
import { openFamily } from '../families/open/family.js';
import { ruleFamily } from '../families/rule/family.js';
import { HalluProbeError, problem, type Problem } from '../errors.js';

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

const registry = new Map<string, ProbeFamily>(Object.entries(BUILTIN_FAMILIES));
for (const [key, family] of registry)
    if (family.core.kind !== key) throw new Error(`probe family ${family.core.kind} is registered as ${key}`);

/**
 * The family of a kind. A kind nobody registered (a question stored by another version; a spec validated first
 * never names one) is a `probe-kind` problem, the same code the spec check gives.
 */
function familyOf(kind: string): ProbeFamily {
    const family = registry.get(kind);
    if (!family)
        throw new HalluProbeError(
            problem('probe-kind', `No probe family "${kind}"; the known kinds are ${familyKinds().join(', ')}.`),
        );
    return family;
}

/** The core of a kind's family (a `probe-kind` problem for an unknown kind). */
export function coreOf(kind: string): FamilyCore {
    return familyOf(kind).core;
}

/** The core of a kind's family, or undefined for an unknown kind. */
export function findCore(kind: string): FamilyCore | undefined {
    return registry.get(kind)?.core;
}

/** One capability of a kind's family, undefined when it has none (a `probe-kind` problem for an unknown kind). */
export function capabilityOf<C extends Capability>(kind: string, capability: C): ProbeFamily[C] {
    return familyOf(kind)[capability];
}

/** One capability of a kind's family, undefined when it has none or the kind is unknown. */
export function findCapability<C extends Capability>(kind: string, capability: C): ProbeFamily[C] | undefined {
    return registry.get(kind)?.[capability];
}

export function familyKinds(): string[] {
    return [...registry.keys()];
}

/**
 * Adds a family at run time (an embedding tool's own kind, a test's fixture family). Its kind must be new.
 * Returns a function that removes it again.
 */
export function registerFamily(family: ProbeFamily): () => void {
    const { kind } = family.core;
    if (registry.has(kind)) throw new Error(`a probe family "${kind}" is already registered`);
    registry.set(kind, family);
    return () => {
        if (registry.get(kind) === family) registry.delete(kind);
    };
}

/** Settings every probe reads, whatever its family (src/core/probes/settings.ts). */
const COMMON_PROBE_SETTINGS: readonly SettingDecl[] = PROBE_SETTINGS.decls;

/** The settings a probe of this kind reads: the common ones and its family's; undefined for an unknown kind. */
export function probeSettings(kind: string): readonly SettingDecl[] | undefined {
    const core = findCore(kind);
    return core
        ? [...COMMON_PROBE_SETTINGS, ...core.settings.map(s => ({ ...s, scope: s.scope ?? `probe ${kind}` }))]
        : undefined;
}

/** Every registered family's offline-simulator rates (settings of an `offline` model block; src/core/models/offline.ts). */
function familySimulatorRates(): SimulatorRate[] {
    return [...registry.values()].flatMap(f => f.simulator?.rates ?? []);
}

/** The families' simulator rates as model settings: a number each, with its default (validated, completed, read like the others). */
export function simulatorRateSettings(): SettingDecl[] {
    return familySimulatorRates().map(r => ({
        name: r.name,
        type: 'number',
        min: 0,
        default: r.default,
        scope: 'model',
        doc: `(offline) ${r.doc}`,
    }));
}

/** The group relation a registered family owns under this name (src/core/verify/groups.ts asks here). */
export function familyGroupRelation(name: string): GroupRelation | undefined {
    for (const family of registry.values()) {
        const found = family.core.groupRelations?.find(r => r.name === name);
        if (found) return found;
    }
    return undefined;
}

/** Every model step after verification of the families the run's spec probes with (src/core/run/spec-run.ts, src/core/report/load.ts). */
export async function familyModelSteps(run: ModelStepRun): Promise<Problem[]> {
    const kinds = new Set(run.spec.probes.map(p => p.kind));
    const problems: Problem[] = [];
    for (const family of registry.values()) {
        const step = family.modelSteps?.afterVerification;
        if (step && kinds.has(family.core.kind)) problems.push(...(await step(run)));
    }
    return problems;
}
