import type { ValidationAcceptor } from 'langium';
import { isAsk, isOption, isPhrasing, isStem, type Phrasing, type Probe } from '../generated/ast.js';
import type { ProbeServices } from '../module.js';
import { visibleFks } from './context.js';

const TARGET_HELP: Record<string, string> = {
    binary: "a binary probe asks about one fd: write 'using <fd name>'",
    choice: "a choice probe builds its options from one fd's right-hand side: write 'using <fd name>'",
    path: "a path probe follows fks: write 'along Movie.director -> Director.birth_year'",
    knows: "a knows probe asks about entities of one relation: write 'about <relation>'",
};

/** Each probe kind needs its own kind of target: binary/choice an fd, path an fk path, knows a relation. */
export function checkProbeTarget(probe: Probe, accept: ValidationAcceptor): void {
    const has = probe.kind === 'path' ? probe.path.length > 0 : probe.kind === 'knows' ? probe.relation !== undefined : probe.fd !== undefined;
    if (!has && TARGET_HELP[probe.kind]) accept('error', `Wrong target for this probe: ${TARGET_HELP[probe.kind]}.`, { node: probe, property: 'kind', code: 'probe-target' });
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
                accept('error', `The path visits relation ${relation.name} twice (a cycle); a path must reach a new relation at every hop.`, { node: probe, property: 'path', index, code: 'path-cycle' });
            }
            visited.add(relation.name);
            const next = probe.path[index + 1]?.relation?.ref;
            const attribute = step.attribute?.ref;
            if (!next || !attribute) return;
            const joined = fks.some(fk => fk.from?.relation?.ref === relation && fk.from.attributes.length === 1
                && fk.from.attributes[0]?.ref === attribute && fk.to?.relation?.ref === next);
            if (!joined) {
                accept('error', `No fk joins ${relation.name}.${attribute.name} to relation ${next.name}, so this hop cannot be followed. Declare one, e.g. 'fk ${relation.name}.${attribute.name} -> ${next.name}.<key>'.`,
                    { node: probe, property: 'path', index, code: 'path-no-fk' });
            }
        });
    };
}

/** Phrasings other than basic/negated have no implied gold; choice options must be right-hand-side attributes of the fd. */
export function checkProbeMembers(probe: Probe, accept: ValidationAcceptor): void {
    const names = new Set<string>();
    for (const m of probe.members) {
        if (isPhrasing(m)) {
            checkPhrasing(m, names, accept);
            if (probe.kind === 'choice' || probe.kind === 'knows') accept('warning', `A ${probe.kind} probe does not use phrasings (${probe.kind === 'choice' ? 'use stem and option' : 'use ask'}).`, { node: m, code: 'member-unused' });
        } else if (isOption(m)) {
            if (probe.kind !== 'choice') { accept('warning', 'Options are only used by choice probes.', { node: m, code: 'member-unused' }); continue; }
            const fd = probe.fd?.ref;
            const name = m.attribute?.$refText;
            if (fd && m.attribute?.ref && !fd.rhs.some(r => r.$refText === name)) {
                accept('error', `Option '${name}' is not on the right-hand side of fd ${fd.name ?? ''} (${fd.rhs.map(r => r.$refText).join(', ')}); a choice option must be a value the fd determines.`,
                    { node: m, property: 'attribute', code: 'option-not-rhs' });
            }
        } else if (isStem(m) && probe.kind !== 'choice') accept('warning', 'Stems are only used by choice probes.', { node: m, code: 'member-unused' });
        else if (isAsk(m) && probe.kind !== 'knows') accept('warning', 'ask is only used by knows probes.', { node: m, code: 'member-unused' });
    }
    if (probe.kind === 'knows' && !probe.members.some(isAsk)) accept('warning', `A knows probe needs an ask template, e.g. ask "Do you know about {${'name'}}?"`, { node: probe, property: 'name', code: 'probe-empty' });
}

function checkPhrasing(p: Phrasing, names: Set<string>, accept: ValidationAcceptor): void {
    const isCustom = p.name !== 'basic' && p.name !== 'negated';
    if (isCustom && p.gold === undefined) {
        accept('error', `Phrasing '${p.name}' needs a gold answer: write 'phrasing ${p.name} gold yes "..."', 'gold no', or 'when "<condition>"'.`, { node: p, property: 'name', code: 'phrasing-needs-gold' });
    }
    if (names.has(p.name)) accept('error', `This probe already has a phrasing named '${p.name}'.`, { node: p, property: 'name', code: 'duplicate-name' });
    names.add(p.name);
}
