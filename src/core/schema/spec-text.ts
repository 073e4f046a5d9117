/**
 * An imported schema as plain data, and its text as a formatted .probe spec: one source per table, one
 * relation per source, keys inside the relation, then FKs and FDs. Names that are not identifiers of the
 * spec language are rewritten and keep their column with `= "column"`.
 */
import type { ScalarType } from '../spec/model.js';
import type { DiscoveredFd } from './discover.js';

export interface ImportedAttribute { name: string; column: string; type: ScalarType }
export interface ImportedRelation {
    name: string;
    source: { name: string; format: 'csv' | 'json' | 'jsonl' | 'sqlite' | 'postgres'; path: string; table?: string; settings?: Record<string, string> };
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
export function identifier(raw: string): string {
    const cleaned = raw.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/\W+/g, '_').replace(/^_+|_+$/g, '');
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
const tuple = (relation: string, attributes: string[]) => attributes.length === 1 ? `${relation}.${attributes[0]}` : `${relation}(${attributes.join(', ')})`;

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

/** One discovered FD as a declaration, or as a comment when it is approximate or has a key-like side. */
export function fdLine(relation: string, fd: DiscoveredFd): string {
    const text = `fd ${relation}: ${fd.lhs.join(', ')} -> ${fd.rhs}`;
    const evidence = fdEvidence(fd);
    if (!fd.exact) return `// ${text} (${evidence})`;
    if (fd.nearKey) return `// ${text} (${evidence}; the left-hand side is almost a key: questions would be near-trivial)`;
    return `${text} // ${evidence}`;
}

/** The formatted spec text of an imported schema. */
export function renderSpec(schema: ImportedSchema): string {
    const parts = [`// Imported from ${schema.origin} by \`halluprobe import\`. Add a probe to ask questions (see docs/import.md).`];
    for (const r of schema.relations) parts.push(`${sourceLine(r)}\n\n${relationText(r)}`);
    const fks = schema.fks.map(fk => {
        const text = `fk ${tuple(fk.from.relation, fk.from.attributes)} -> ${tuple(fk.to.relation, fk.to.attributes)}`;
        if (fk.declared) return text;
        return fk.coverage >= 1 ? `${text} // found in the data: every value is present` : `// ${text} (found in the data: ${percent(fk.coverage)} of values present)`;
    });
    if (fks.length > 0) parts.push(fks.join('\n'));
    for (const found of schema.fds ?? []) {
        const lines = found.fds.filter(fd => !fd.keyLike).map(fd => fdLine(found.relation, fd));
        if (!found.complete) lines.push(`// (FD discovery on ${found.relation} stopped at its time budget: the list may be incomplete)`);
        if (lines.length > 0) parts.push(lines.join('\n'));
    }
    return parts.join('\n\n') + '\n';
}
