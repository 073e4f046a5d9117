/**
 * The column store (issue 39): a new process's load of an unchanged file is answered from the entry the last one
 * wrote, with the same tables and problems; a changed file, other read settings, a corrupt entry or one lacking a
 * column now mapped are read from the file again (and the entry rewritten).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSpec } from '../../../src/core/spec/load.js';
import { ColumnStore, DataCache, loadData } from '../../../src/core/data/index.js';
import type { LoadedData } from '../../../src/core/data/types.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-column-store-'));
test.after(() => fs.rmSync(root, { recursive: true, force: true }));

const CSV = `title,year,director,born
Avatar,2009,James Cameron,1954
Titanic,1997,James Cameron,x1954
Spectre,2015,Sam Mendes,1965
`;
const MOVIE = `relation Movie from movies {
    title: text
    year: int
    director: text
    key (title, year)
}
`;
const DIRECTOR = `relation Director from movies distinct {
    name: text = "director"
    born: int
    key (name)
}
`;

/** A spec over one CSV in its own folder (the CSV written once); `settings` inside the source's braces. */
function write(dir: string, relations: string, settings = '', csv = CSV): string {
    fs.mkdirSync(dir, { recursive: true });
    if (!fs.existsSync(path.join(dir, 'movies.csv'))) fs.writeFileSync(path.join(dir, 'movies.csv'), csv);
    const spec = path.join(dir, 'spec.probe');
    fs.writeFileSync(spec, `source movies csv "movies.csv"${settings ? ` {\n${settings}\n}` : ''}\n${relations}`);
    return spec;
}

/** Loads the spec as a new server process would: a new DataCache over the store's folder. */
async function load(spec: string, dir: string): Promise<{ data: LoadedData; store: ColumnStore; parses: number }> {
    const store = new ColumnStore(dir);
    const cache = new DataCache();
    cache.store = store;
    const data = await loadData((await loadSpec(spec)).model, cache);
    return { data, store, parses: cache.parses };
}

/** Every table's rows as values, and the diagnostics: what a load gives, whatever it was read from. */
const shown = (data: LoadedData) => ({
    tables: [...data.tables].map(([name, t]) => [
        name,
        [...t.lines],
        Array.from({ length: t.rowCount }, (_, r) => t.columns.map(c => t.value(r, c.attribute))),
    ]),
    diagnostics: data.diagnostics.map(d => `${d.code}: ${d.message}`),
});

test('an unchanged file is answered from the entry: same tables, lines and coercion warnings', async () => {
    const dir = path.join(root, 'hit');
    const spec = write(dir, MOVIE + DIRECTOR);
    const store = path.join(dir, 'store');
    const first = await load(spec, store);
    assert.deepEqual(first.store.counts, { hits: 0, misses: 1, writes: 1 });
    const second = await load(spec, store);
    assert.deepEqual(second.store.counts, { hits: 1, misses: 0, writes: 0 });
    assert.deepEqual(shown(second.data), shown(first.data));
    assert.ok(
        shown(first.data).diagnostics.some(d => d.startsWith('coercion:')),
        'the entry keeps the coercion warning',
    );
    // Titanic's unreadable birth year is empty, so (James Cameron, empty) is a combination of its own.
    assert.deepEqual(shown(second.data).tables[1]![1], [2, 3, 4], 'the distinct projection keeps its first lines');
});

test('a changed file is read again, not answered from the stale entry', async () => {
    const dir = path.join(root, 'stale');
    const spec = write(dir, MOVIE);
    const store = path.join(dir, 'store');
    await load(spec, store);
    // The same size, a later time: only the stamp tells the entry is stale.
    fs.writeFileSync(path.join(dir, 'movies.csv'), CSV.replace('Avatar', 'Abyss!'));
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(dir, 'movies.csv'), later, later);
    const again = await load(spec, store);
    assert.deepEqual(again.store.counts, { hits: 0, misses: 1, writes: 1 });
    assert.equal(again.data.tables.get('Movie')!.value(0, 'title'), 'Abyss!');
    assert.deepEqual((await load(spec, store)).store.counts, { hits: 1, misses: 0, writes: 0 }, 'the entry was rewritten');
});

test('a corrupt or truncated entry is ignored and rewritten', async () => {
    const dir = path.join(root, 'corrupt');
    const spec = write(dir, MOVIE);
    const store = path.join(dir, 'store');
    const first = await load(spec, store);
    const [entry] = fs.readdirSync(store);
    for (const bytes of [Buffer.from('not a serialized entry'), fs.readFileSync(path.join(store, entry!)).subarray(0, 40)]) {
        fs.writeFileSync(path.join(store, entry!), bytes);
        const again = await load(spec, store);
        assert.deepEqual(again.store.counts, { hits: 0, misses: 1, writes: 1 });
        assert.deepEqual(shown(again.data), shown(first.data));
    }
});

test('other read settings, or a column not stored yet, read the file again; the entry then holds both columns', async () => {
    const dir = path.join(root, 'settings');
    const spec = write(dir, MOVIE);
    const store = path.join(dir, 'store');
    await load(spec, store);
    // The same file read with another delimiter: its entry is not the comma read's.
    const other = path.join(dir, 'other');
    const comma = write(other, MOVIE);
    await load(comma, store);
    const semicolon = write(other, MOVIE, '    delimiter ";"');
    const read = await load(semicolon, store);
    assert.deepEqual(read.store.counts, { hits: 0, misses: 1, writes: 1 });
    assert.ok(
        shown(read.data).diagnostics.some(d => d.startsWith('missing-column:')),
        'the header is one column now',
    );

    // The Director relation maps `born`, which the entry lacks: read again, and stored beside Movie's columns.
    const both = write(dir, MOVIE + DIRECTOR);
    assert.deepEqual((await load(both, store)).store.counts, { hits: 0, misses: 1, writes: 1 });
    const movieOnly = write(dir, MOVIE);
    assert.deepEqual((await load(movieOnly, store)).store.counts, { hits: 1, misses: 0, writes: 0 });
    assert.deepEqual((await load(both, store)).store.counts, { hits: 1, misses: 0, writes: 0 });
    assert.equal(spec, movieOnly);
});
