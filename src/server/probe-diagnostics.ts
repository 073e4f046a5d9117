import { interruptAndCheck, type Cancellation } from 'langium';
import type { LoadedData, RelationTable } from '../core/data/index.js';
import type { SpecDiagnostic } from '../core/spec/index.js';
import type { ProbeDecl, SpecModel } from '../core/spec/index.js';

type PerProbe = (spec: SpecModel, data: LoadedData) => SpecDiagnostic[];
/** The memoised form: probe by probe, giving way to the editor's messages and stopping when the build is cancelled. */
type Cached = (spec: SpecModel, data: LoadedData, cancelToken?: Cancellation.CancellationToken) => Promise<SpecDiagnostic[]>;

const withoutLocations = (_key: string, value: unknown) => (_key === 'loc' ? undefined : value);

/**
 * A probe's members keep their places relative to the probe's first line in its key: a probe that moved as a
 * whole reuses its diagnostics (shifted), one whose inside changed (a line added above an option) does not.
 */
const relativeTo = (line: number) => (key: string, value: unknown) => {
    if (key !== 'loc') return value;
    const { start, end } = (value as ProbeDecl['loc']).range;
    return [start.line - line, start.character, end.line - line, end.character];
};

/**
 * Remembers the probe generator's diagnostics per probe, so that after an edit only the probes whose
 * declaration (or whose spec context or data) changed are analysed again. A probe that merely moved (lines
 * added above it) reuses its diagnostics, shifted to its new line. Between probes it lets the editor's messages
 * in (an edit cancels the build: a spec of 400 probes is no longer one long step nothing can interrupt).
 */
export function cachedProbeDiagnostics(compute: PerProbe): Cached {
    const tableIds = new WeakMap<RelationTable, number>();
    let nextId = 0;
    let memo = new Map<string, { probeLine: number; diagnostics: SpecDiagnostic[] }>();
    // Everything but the probes, as one string: when it changes every probe is analysed again. Kept apart from
    // the per-probe keys so that a large spec does not build one large key per probe on every edit.
    let memoContext = '';
    // The context's parts at the last call: the same declaration objects (the spec model reuses unchanged ones) and
    // tables are the same context without writing it out.
    let lastParts: readonly unknown[] = [];
    /** Each probe's key, for as long as the spec model reuses its declaration. */
    const keys = new WeakMap<ProbeDecl, string>();
    return async (spec, data, cancelToken) => {
        const idOf = (t: RelationTable) => {
            let id = tableIds.get(t);
            if (id === undefined) tableIds.set(t, (id = nextId++));
            return id;
        };
        const parts = [...spec.sources, ...spec.relations, ...spec.fds, ...spec.fks, ...spec.aliases, ...data.tables.values()];
        if (parts.length !== lastParts.length || parts.some((p, i) => p !== lastParts[i])) {
            const context = JSON.stringify(
                [spec.sources, spec.relations, spec.fds, spec.fks, spec.aliases, [...data.tables.values()].map(idOf)],
                withoutLocations,
            );
            if (context !== memoContext) {
                memo = new Map();
                memoContext = context;
            }
        }
        lastParts = parts;
        const next = new Map<string, { probeLine: number; diagnostics: SpecDiagnostic[] }>();
        const out: SpecDiagnostic[] = [];
        for (const probe of spec.probes) {
            if (cancelToken) await interruptAndCheck(cancelToken);
            let key = keys.get(probe);
            if (key === undefined)
                keys.set(
                    probe,
                    (key = `${probe.loc.file}\u0000${JSON.stringify(probe, relativeTo(probe.loc.range.start.line))}`),
                );
            const line = probe.loc.range.start.line;
            let entry = memo.get(key) ?? next.get(key);
            if (!entry) entry = { probeLine: line, diagnostics: compute({ ...spec, probes: [probe] }, data) };
            next.set(key, entry);
            out.push(...entry.diagnostics.map(d => shift(d, probe, line - entry.probeLine)));
        }
        memo = next;
        return out;
    };
}

function shift(d: SpecDiagnostic, probe: ProbeDecl, lines: number): SpecDiagnostic {
    if (lines === 0 || d.file !== probe.loc.file) return d;
    const move = (p: { line: number; character: number }) => ({ line: p.line + lines, character: p.character });
    return { ...d, range: { start: move(d.range.start), end: move(d.range.end) } };
}
