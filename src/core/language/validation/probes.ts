import type { ValidationAcceptor } from 'langium';
import {
    isAsk,
    isFd,
    isRule,
    isOption,
    isPhrasing,
    isStem,
    type Phrasing,
    type Probe,
    type ProbeMember,
} from '../generated/ast.js';
import { familyKinds, findCore } from '../../probes/registry.js';
import type { ProbeMemberKind } from '../../probes/contract/core.js';
import type { ProbeServices } from '../services.js';
import { visibleFks } from './context.js';

/** The probe kinds completion offers after `probe NAME `: every registered family's, with its title and docs. */
export function probeKinds(): { kind: string; title: string; docs?: string }[] {
    return familyKinds().map(kind => {
        const f = findCore(kind)!;
        return f.docs ? { kind, title: f.title, docs: f.docs } : { kind, title: f.title };
    });
}

const TARGET_OF = {
    fd: (p: Probe) => p.fd !== undefined && !isRule(p.fd.ref),
    rule: (p: Probe) => isRule(p.fd?.ref),
    path: (p: Probe) => p.path.length > 0,
    relation: (p: Probe) => p.relation !== undefined,
};

/** The kind names a registered probe family, and the probe has the target that family needs. */
export function checkProbeTarget(probe: Probe, accept: ValidationAcceptor): void {
    const family = findCore(probe.kind ?? '');
    if (!family) {
        accept('error', `Unknown probe kind '${probe.kind ?? ''}': use one of ${familyKinds().join(', ')}.`, {
            node: probe,
            property: 'kind',
            code: 'probe-kind',
        });
        return;
    }
    if (!TARGET_OF[family.target](probe))
        accept('error', `Wrong target for this probe: a ${family.kind} probe asks ${family.title}; ${family.example}.`, {
            node: probe,
            property: 'kind',
            code: 'probe-target',
        });
}

/** A path's steps are joined by fks from each step's attribute to the next step's relation, without revisiting a relation. */
export function checkProbePath(services: ProbeServices) {
    return (probe: Probe, accept: ValidationAcceptor): void => {
        if (probe.path.length === 0) return;
        const fks = visibleFks(probe, services);
        const visited = new Set<string>();
        probe.path.forEach((step, index) => {
            const relation = step.relation?.ref;
            if (!relation) return;
            if (visited.has(relation.name)) {
                accept(
                    'error',
                    `The path visits relation ${relation.name} twice (a cycle); a path must reach a new relation at every hop.`,
                    { node: probe, property: 'path', index, code: 'path-cycle' },
                );
            }
            visited.add(relation.name);
            const next = probe.path[index + 1]?.relation?.ref;
            const attribute = step.attribute?.ref;
            if (!next || !attribute) return;
            const joined = fks.some(
                fk =>
                    fk.from?.relation?.ref === relation &&
                    fk.from.attributes.length === 1 &&
                    fk.from.attributes[0]?.ref === attribute &&
                    fk.to?.relation?.ref === next,
            );
            // An fk from this attribute to a relation that is itself misspelt: that name is the one error (issue 36 item 9).
            const misspelt = fks.some(
                fk =>
                    fk.from?.relation?.ref === relation &&
                    fk.from.attributes[0]?.ref === attribute &&
                    fk.to?.relation !== undefined &&
                    fk.to.relation.ref === undefined,
            );
            if (!joined && !misspelt) {
                accept(
                    'error',
                    `No fk joins ${relation.name}.${attribute.name} to relation ${next.name}, so this hop cannot be followed. Declare one, e.g. 'fk ${relation.name}.${attribute.name} -> ${next.name}.<key>'.`,
                    { node: probe, property: 'path', index, code: 'path-no-fk' },
                );
            }
        });
    };
}

/** Phrasings other than basic/negated have no implied gold; choice options must be right-hand-side attributes of the fd. */
export function checkProbeMembers(probe: Probe, accept: ValidationAcceptor): void {
    const family = findCore(probe.kind ?? '');
    if (!family) return;
    const names = new Set<string>();
    const unused = (m: ProbeMember, member: ProbeMemberKind) => {
        if (family.members.includes(member)) return false;
        const users = familyKinds().filter(k => findCore(k)!.members.includes(member));
        const own = family.members.length ? ` (a ${family.kind} probe reads: ${family.members.join(', ')})` : '';
        accept('warning', `A ${member} is only read by ${users.join(', ')} probes${own}.`, { node: m, code: 'member-unused' });
        return true;
    };
    for (const m of probe.members) {
        if (isPhrasing(m)) {
            checkPhrasing(m, names, accept);
            unused(m, 'phrasing');
        } else if (isOption(m)) {
            if (unused(m, 'option')) continue;
            const fd = isFd(probe.fd?.ref) ? probe.fd.ref : undefined;
            const name = m.attribute?.$refText;
            if (fd && m.attribute?.ref && !fd.rhs.some(r => r.$refText === name)) {
                accept(
                    'error',
                    `Option '${name}' is not on the right-hand side of fd ${fd.name ?? ''} (${fd.rhs.map(r => r.$refText).join(', ')}); a choice option must be a value the fd determines.`,
                    { node: m, property: 'attribute', code: 'option-not-rhs' },
                );
            }
        } else if (isStem(m)) unused(m, 'stem');
        else if (isAsk(m)) unused(m, 'ask');
    }
}

function checkPhrasing(p: Phrasing, names: Set<string>, accept: ValidationAcceptor): void {
    const isCustom = p.name !== 'basic' && p.name !== 'negated';
    if (isCustom && p.gold === undefined) {
        accept(
            'error',
            `Phrasing '${p.name}' needs a gold answer: write 'phrasing ${p.name} gold yes "..."', 'gold no', or 'when "<condition>"'.`,
            { node: p, property: 'name', code: 'phrasing-needs-gold' },
        );
    }
    if (names.has(p.name))
        accept('error', `This probe already has a phrasing named '${p.name}'.`, {
            node: p,
            property: 'name',
            code: 'duplicate-name',
        });
    names.add(p.name);
}
