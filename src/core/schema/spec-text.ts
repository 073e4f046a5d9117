/**
 * An imported schema as plain data, and its text as a formatted .probe spec: one source per table, one
 * relation per source, keys inside the relation, then FKs and FDs. Names that are not identifiers of the
 * spec language are rewritten and keep their column with `= "column"`.
 */
import type { ScalarType } from '../spec/model.js';
import type { DiscoveredFd } from './discover.js';

interface ImportedAttribute {
    name: string;
    column: string;
    type: ScalarType;
}
export interface ImportedRelation {
    name: string;
    source: {
        name: string;
        format: 'csv' | 'json' | 'jsonl' | 'sqlite' | 'postgres';
        path: string;
        table?: string;
        settings?: Record<string, string>;
    };
    attributes: ImportedAttribute[];
    /** Attribute names. */
    keys: string[][];
    rowCount: number;
}
export interface ImportedFk {
    from: { relation: string; attributes: string[] };
    to: { relation: string; attributes: string[] };
    /** Share of the referencing values found in the referenced ones (1 for a declared constraint). */
    coverage: number;
    declared: boolean;
}
export interface ImportedSchema {
    origin: string;
    relations: ImportedRelation[];
    fks: ImportedFk[];
    fds?: { relation: string; fds: DiscoveredFd[]; complete: boolean; elapsedMs: number }[];
}

/** A name the spec language accepts: letters, digits and `_`, not starting with a digit. */
function identifier(raw: string): string {
    const cleaned = raw
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/\W+/g, '_')
        .replace(/^_+|_+$/g, '');
    if (cleaned === '') return 'x';
    return /^\d/.test(cleaned) ? `_${cleaned}` : cleaned;
}

/** Unique identifiers for a list of raw names, in order (`a`, `a_2`, …). */
export function identifiers(raws: string[], taken = new Set<string>()): string[] {
    return raws.map(raw => {
        const base = identifier(raw);
        let name = base;
        for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${base}_${i}`;
        taken.add(name.toLowerCase());
        return name;
    });
}

const quote = (s: string) => JSON.stringify(s);
const percent = (share: number) => `${(Math.floor(share * 1000) / 10).toFixed(1)} %`;
const tuple = (relation: string, attributes: string[]) =>
    attributes.length === 1 ? `${relation}.${attributes[0]}` : `${relation}(${attributes.join(', ')})`;

function sourceLine(r: ImportedRelation): string {
    const s = r.source;
    let line = `source ${s.name} ${s.format} ${quote(s.path)}`;
    if (s.table !== undefined) line += ` table ${quote(s.table)}`;
    const settings = Object.entries(s.settings ?? {});
    if (settings.length > 0) line += ` {\n${settings.map(([k, v]) => `    ${k} ${quote(v)}\n`).join('')}}`;
    return line;
}

function relationText(r: ImportedRelation): string {
    const attrs = r.attributes.map(a => `    ${a.name}: ${a.type}${a.column !== a.name ? ` = ${quote(a.column)}` : ''}`);
    const keys = r.keys.map(k => `    key (${k.join(', ')})`);
    return `relation ${r.name} from ${r.source.name} {\n${[...attrs, ...keys].join('\n')}\n}`;
}

/** `holds on 99.8 % of rows, 1,204 groups`: what the data says about a discovered FD. */
export function fdEvidence(fd: DiscoveredFd): string {
    return `holds on ${percent(1 - fd.error)} of rows, ${fd.groups.toLocaleString('en-US')} group${fd.groups === 1 ? '' : 's'}`;
}

/**
 * The fewest groups (rows sharing a left-hand side value, two or more of them) an exact FD is declared on.
 * Each group is one place where the data could have broken the FD and did not; one group is one pair (or a few
 * rows) agreeing, which chance explains as well as a rule does — a right-hand side of two values agrees by chance
 * half the time, and the hover of such an FD shows nearly as many distinct left-hand sides as rows. Two groups are
 * the least that shows the dependency repeat; a higher bar would also hide the FDs of the small hand-made tables
 * a spec is often started from. Below it the FD is written commented out, with its reason, for the user to judge.
 */
const MIN_FD_GROUPS = 2;

/** One line the import writes: a declaration (`live`), a declaration commented out, or a note (neither). */
interface WrittenLine {
    text: string;
    kind: 'live' | 'commented' | 'note';
}

/**
 * One discovered FD of a relation of `rows` rows as the import writes it: declared when it is exact, its
 * left-hand side is not almost a key and it holds on `MIN_FD_GROUPS` groups or more; otherwise commented out with
 * the reason. An empty left-hand side (a constant column) is a note: the language has no such FD.
 */
function fdLine(relation: string, fd: DiscoveredFd, rows: number): WrittenLine {
    if (fd.lhs.length === 0)
        return {
            kind: 'note',
            text: `// ${relation}.${fd.rhs} has one value on all ${rows.toLocaleString('en-US')} rows: a constant, which no fd declares`,
        };
    const text = `fd ${relation}: ${fd.lhs.join(', ')} -> ${fd.rhs}`;
    const evidence = fdEvidence(fd);
    if (!fd.exact) return { kind: 'commented', text: `// ${text} (${evidence})` };
    if (fd.nearKey)
        return {
            kind: 'commented',
            text: `// ${text} (${evidence}; the left-hand side is almost a key: questions would be near-trivial)`,
        };
    if (fd.groups < MIN_FD_GROUPS) {
        const repeats = fd.groups === 1 ? 'one left-hand side value repeats' : `only ${fd.groups} left-hand side values repeat`;
        return {
            kind: 'commented',
            text:
                `// ${text} (${evidence}: ${repeats}, on ${fd.coveredRows.toLocaleString('en-US')} of ${rows.toLocaleString('en-US')} rows, ` +
                'too little to tell a rule from chance; uncomment it if it is a rule of your data)',
        };
    }
    return { kind: 'live', text: `${text} // ${evidence}` };
}

/** One FK as the import writes it: declared when constrained or every value is found, else commented out with its coverage. */
function fkLine(fk: ImportedFk): WrittenLine {
    const text = `fk ${tuple(fk.from.relation, fk.from.attributes)} -> ${tuple(fk.to.relation, fk.to.attributes)}`;
    if (fk.declared) return { kind: 'live', text };
    return fk.coverage >= 1
        ? { kind: 'live', text: `${text} // found in the data: every value is present` }
        : { kind: 'commented', text: `// ${text} (found in the data: ${percent(fk.coverage)} of values present)` };
}

/** The FD lines of each relation FDs were discovered on (key-like left-hand sides left out: trivial questions). */
function fdBlocks(schema: ImportedSchema): WrittenLine[][] {
    const rows = new Map(schema.relations.map(r => [r.name, r.rowCount]));
    return (schema.fds ?? []).map(found => {
        const lines = found.fds.filter(fd => !fd.keyLike).map(fd => fdLine(found.relation, fd, rows.get(found.relation) ?? 0));
        if (!found.complete)
            lines.push({
                kind: 'note',
                text: `// (FD discovery on ${found.relation} stopped at its time budget: the list may be incomplete)`,
            });
        return lines;
    });
}

/** What to do next with an imported spec: written at its top, and shown by the CLI and the editor. */
export const IMPORT_ADVICE = 'Add a probe to ask questions: the README\'s "Write a spec" section shows how.';

/** What an import wrote, counted from the lines it wrote: declarations apart from those written commented out. */
export interface ImportSummary {
    relations: number;
    keys: number;
    fks: { live: number; commented: number };
    /** Absent when FDs were not discovered. */
    fds?: { live: number; commented: number };
    /** `3 relation(s), 4 key(s), 4 FK(s), 0 FD(s) declared; 1 FD written commented out (…)` */
    text: string;
}

export function importSummary(schema: ImportedSchema): ImportSummary {
    const tally = (lines: WrittenLine[]) => ({
        live: lines.filter(l => l.kind === 'live').length,
        commented: lines.filter(l => l.kind === 'commented').length,
    });
    const fks = tally(schema.fks.map(fkLine));
    const fds = schema.fds ? tally(fdBlocks(schema).flat()) : undefined;
    const relations = schema.relations.length,
        keys = schema.relations.reduce((n, r) => n + r.keys.length, 0);
    const commented = [
        [fks.commented, 'FK'],
        [fds?.commented ?? 0, 'FD'],
    ]
        .filter(([n]) => n !== 0)
        .map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`);
    const text =
        `${relations} relation(s), ${keys} key(s), ${fks.live} FK(s)${fds ? `, ${fds.live} FD(s)` : ''} declared` +
        (commented.length > 0
            ? `; ${commented.join(', ')} written commented out (the spec says why; uncomment what is a rule of your data)`
            : '');
    return { relations, keys, fks, ...(fds ? { fds } : {}), text };
}

/** The formatted spec text of an imported schema. */
export function renderSpec(schema: ImportedSchema): string {
    const parts = [`// Imported from ${schema.origin} by \`halluprobe import\`. ${IMPORT_ADVICE}`];
    for (const r of schema.relations) parts.push(`${sourceLine(r)}\n\n${relationText(r)}`);
    if (schema.fks.length > 0) parts.push(schema.fks.map(fk => fkLine(fk).text).join('\n'));
    for (const lines of fdBlocks(schema)) if (lines.length > 0) parts.push(lines.map(l => l.text).join('\n'));
    return parts.join('\n\n') + '\n';
}
