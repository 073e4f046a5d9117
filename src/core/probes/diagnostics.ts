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
                    problems.push({ location: probe.loc, severity: 'error', code: 'probe-fd-empty', message: `${fd.relation}.${a}, the right-hand side of ${fd.id}, is empty in every row: there is no answer to ask about. Check the column mapping of ${a}.` });
                }
            }
        }
        // A relation left unloaded by an error in its declaration: the probe's problems would only repeat that error.
        const own: Problem[] = [];
        const plan = compileProbe(spec, data, probe, own, 0, undefined, options.editor ?? false);
        if ([...data.skipped ?? []].some(r => own.some(p => p.message === notLoaded(r)))) continue;
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
            location: probe.loc, severity: 'warning', code: 'probe-no-rows',
            message: total === 0 ? `Probe ${probe.name} gives no questions: ${plan.scope.slots[0]!.relation.name} has no rows.`
                : `Probe ${probe.name} gives no questions: all ${total} rows are skipped — ${why}.`,
        });
    }
    return problems.map(toDiagnostic);
}
