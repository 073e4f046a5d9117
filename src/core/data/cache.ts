/**
 * Loaded relations kept across checks, keyed by the content hash of their file and by their declaration, so
 * re-checking a spec after an edit that does not touch data reloads nothing. A file is first compared by
 * size and modification time (cheap); only when those changed is it hashed, and only when the hash changed
 * is it parsed again.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type { RelationDecl, SourceDecl } from '../spec/model.js';
import type { RelationTable } from './types.js';
import { loadSource, type RelationLoad } from './load.js';
import { changeSignal } from './postgres.js';
import type { ColumnStore } from './column-store.js';

interface FileState {
    size: number;
    mtimeMs: number;
    hash: string;
}

async function hashFile(file: string): Promise<string> {
    const hash = createHash('sha256');
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
    return hash.digest('hex');
}

/** The parts of a declaration that change what is loaded (not where it is written). */
function sourceKey(s: SourceDecl): string {
    return JSON.stringify([
        s.format,
        s.path,
        s.table ?? null,
        s.query ?? null,
        Object.entries(s.settings).sort(([a], [b]) => a.localeCompare(b)),
    ]);
}
function relationKey(r: RelationDecl): string {
    return JSON.stringify([r.name, r.distinct, r.attributes.map(a => [a.name, a.type.scalar, a.type.list, a.column])]);
}

export class DataCache {
    /** How many times a source file was parsed (for tests and the language server's log). */
    parses = 0;
    /** How many times a file was hashed because its size or time changed. */
    hashes = 0;
    private readonly files = new Map<string, FileState>();
    /** (file, relation name) → the declaration + content it was loaded for, and the result. */
    private readonly loads = new Map<string, { key: string; load: RelationLoad }>();
    private checks = new WeakMap<RelationTable, Map<string, unknown>>();
    /** Where the columns read from files are kept between processes (the language server's; see column-store.ts). */
    store: ColumnStore | undefined;

    /** The content hash of a file, or undefined when it cannot be read. */
    async fileHash(file: string): Promise<string | undefined> {
        let stat: fs.Stats;
        try {
            stat = fs.statSync(file);
        } catch {
            this.files.delete(file);
            return undefined;
        }
        const known = this.files.get(file);
        if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return known.hash;
        this.hashes++;
        let hash: string;
        try {
            hash = await hashFile(file);
        } catch {
            return undefined;
        }
        // A SQLite database in WAL mode keeps recent writes beside the file.
        if (fs.existsSync(`${file}-wal`)) hash += await hashFile(`${file}-wal`);
        this.files.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, hash });
        return hash;
    }

    /** Loads the relations of one source, parsing the file only for relations not already loaded from the same content. */
    async load(source: SourceDecl, relations: RelationDecl[], signal?: AbortSignal): Promise<Map<string, RelationLoad>> {
        // A database has no file to hash: its cheap change signal (row count and newest writer) stands in.
        const hash = source.format === 'postgres' ? await changeSignal(source) : await this.fileHash(source.path);
        if (hash === undefined) return loadSource(source, relations, signal, this.store);
        const result = new Map<string, RelationLoad>();
        const todo: RelationDecl[] = [];
        // Made once per load, not per relation: the editor asks on every edit, for every relation of a large spec.
        const prefix = `${hash}|${sourceKey(source)}|`;
        const keyOf = (r: RelationDecl) => prefix + relationKey(r);
        for (const r of relations) {
            const hit = this.loads.get(`${source.path}|${r.name}`);
            if (hit && hit.key === keyOf(r)) result.set(r.name, hit.load);
            else todo.push(r);
        }
        if (todo.length === 0) return result;
        this.parses++;
        const loaded = await loadSource(source, todo, signal, this.store);
        for (const r of todo) {
            const load = loaded.get(r.name)!;
            this.loads.set(`${source.path}|${r.name}`, { key: keyOf(r), load });
            result.set(r.name, load);
        }
        return result;
    }

    /** A check result remembered per table (tables are immutable, so a cached table's results stay true). */
    memo<T>(table: RelationTable, key: string, compute: () => T): T {
        let results = this.checks.get(table);
        if (!results) {
            results = new Map();
            this.checks.set(table, results);
        }
        if (!results.has(key)) results.set(key, compute());
        return results.get(key) as T;
    }

    clear(): void {
        this.files.clear();
        this.loads.clear();
        this.checks = new WeakMap();
    }
}
