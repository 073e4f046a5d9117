/**
 * Generation-time problems of every probe, as spec diagnostics anchored at the probe: bad templates,
 * missing FDs or paths, path cycles, choice probes with fewer than two options, an FD whose right-hand side
 * is empty in every row, and probes with no eligible row (with the reasons rows were skipped).
 */
import { findFd, type SpecModel } from '../spec/model.js';
import type { LoadedData } from '../data/types.js';
import type { SpecDiagnostic } from '../spec/load.js';
import { compileProbe, toDiagnostic } from './generate.js';
import type { SkipReason } from './plan.js';
import { notLoaded } from './scope.js';
import { answerInQuestion } from './answer-leak.js';
import type { Problem } from '../errors.js';

const WHY: Record<SkipReason, string> = {
    null: 'have an empty value the questions or keywords need',
    violating: 'are in groups that violate the FD or repeat a key (ambiguous ground truth)',
    dangling: 'reference a row that does not exist (dangling fk)',
    cycle: 'lead back to an entity already on the path (cycle)',
    invalid: 'make a condition or predicate fail (e.g. arithmetic on text)',
    underived: 'have no fact the rule derives',
};

/** `editor`: for the language server, from estimates and bounded samples (see CompileInput.editor). */
export function probeDiagnostics(spec: SpecModel, data: LoadedData, options: { editor?: boolean } = {}): SpecDiagnostic[] {
    const problems: Problem[] = [];
    for (const probe of spec.probes) {
        const fd = probe.fd ? findFd(spec, probe.fd) : undefined;
        const table = fd ? data.tables.get(fd.relation) : undefined;
        if (fd && table && table.rowCount > 0) {
            for (const a of fd.rhs) {
                const col = table.column(a);
                if (col && col.codes.every(c => c < 0)) {
                    problems.push({
                        location: probe.loc,
                        severity: 'error',
                        code: 'probe-fd-empty',
                        message: `${fd.relation}.${a}, the right-hand side of ${fd.id}, is empty in every row: there is no answer to ask about. Check the column mapping of ${a}.`,
                    });
                }
            }
        }
        // A relation left unloaded by an error in its declaration: the probe's problems would only repeat that error.
        const own: Problem[] = [];
        const plan = compileProbe(spec, data, probe, own, 0, undefined, options.editor ?? false);
        if ([...(data.skipped ?? [])].some(r => own.some(p => p.message === notLoaded(r)))) continue;
        // A relation the data layer could not load (a missing CSV): its error is the one diagnostic (issue 36 item 9).
        const unread = data.diagnostics.some(d => d.severity === 'error');
        if (unread && spec.relations.some(r => !data.tables.has(r.name) && own.some(p => p.message === notLoaded(r.name))))
            continue;
        problems.push(...own);
        if (!plan || problems.some(p => p.location === probe.loc && p.code === 'probe-fd-empty')) continue;
        problems.push(...answerInQuestion(spec, probe, plan));
        const rows = new Int32Array(plan.scope.slots.length);
        const counts: Partial<Record<SkipReason, number>> = {};
        let eligible = 0;
        const total = plan.scope.slots[0]!.table.rowCount;
        for (let row = 0; row < total && eligible === 0; row++) {
            const reason = plan.bind(row, rows) ?? (plan.items(rows) === 'invalid' ? 'invalid' : undefined);
            if (reason) counts[reason] = (counts[reason] ?? 0) + 1;
            else eligible++;
        }
        if (eligible > 0) continue;
        const why = (Object.entries(counts) as [SkipReason, number][]).map(([r, n]) => `${n} ${WHY[r]}`).join('; ');
        problems.push({
            location: probe.loc,
            severity: 'warning',
            code: 'probe-no-rows',
            message:
                total === 0
                    ? `Probe ${probe.name} gives no questions: ${plan.scope.slots[0]!.relation.name} has no rows.`
                    : `Probe ${probe.name} gives no questions: all ${total} rows are skipped — ${why}.`,
        });
    }
    return problems.map(toDiagnostic);
}

type Range = SpecDiagnostic['range'];
type Position = Range['start'];
const atOrBefore = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character <= b.character);
const within = (range: Range, at: Position) => atOrBefore(range.start, at) && atOrBefore(at, range.end);

/**
 * The generator's problems of a probe the language already reports an error in, dropped: they follow from that
 * error ("Probe p2 needs an FD" after "Unknown fd or rule 'movie_titel'", "{titel} names no attribute" after
 * "Unknown attribute 'titel'", anything after a syntax error). One typo, one diagnostic.
 */
export function withoutFollowOns(
    spec: SpecModel,
    generated: readonly SpecDiagnostic[],
    reported: readonly Pick<SpecDiagnostic, 'file' | 'range' | 'severity'>[],
): SpecDiagnostic[] {
    const declared: { file: string; range: Range }[] = [
        ...spec.sources,
        ...spec.relations,
        ...spec.fds,
        ...spec.fks,
        ...spec.aliases,
        ...spec.probes,
        ...spec.models,
        ...spec.suites,
        ...(spec.rules ?? []),
    ].flatMap(d =>
        (d as { loc?: { file: string; range: Range } }).loc ? [(d as { loc: { file: string; range: Range } }).loc] : [],
    );
    // A probe owns its text up to the next declaration: a syntax error that the parser's recovery left outside the
    // probe's own node (`probe p2 binary usin …`) is still that probe's.
    const owned = (loc: { file: string; range: Range }): Range => {
        const later = declared
            .filter(l => l.file === loc.file && !atOrBefore(l.range.start, loc.range.start))
            .map(l => l.range.start);
        const end = later.reduce<Position>((a, b) => (atOrBefore(b, a) ? b : a), { line: Number.MAX_SAFE_INTEGER, character: 0 });
        return { start: loc.range.start, end };
    };
    const erring = (loc: { file: string; range: Range }, region = owned(loc)) =>
        reported.some(d => d.severity === 'error' && d.file === loc.file && within(region, d.range.start));
    // An fk the language reports an error in (a misspelt target relation) breaks the paths that step along it: one error.
    const brokenFks = spec.fks.filter(f => erring(f.loc, f.loc.range));
    const alongBroken = (p: SpecModel['probes'][number]) =>
        (p.path ?? []).some(step =>
            brokenFks.some(f => f.from.relation === step.relation && f.from.attributes.includes(step.attribute)),
        );
    const broken = spec.probes.filter(p => erring(p.loc) || alongBroken(p));
    return generated.filter(g => !broken.some(p => g.file === p.loc.file && within(p.loc.range, g.range.start)));
}
