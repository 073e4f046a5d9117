/**
 * The data layer against SQLite on the same data, in the same run (issue 2): a generated 1,000,000-row
 * movie CSV (plus a directors file for the FK) and every ERBench file in ../shared/data/erbench/.
 * Each side of each case runs in its own child process so its peak memory is its own:
 *   ours   — load (streaming CSV → typed, dictionary-encoded table), then the FD and FK checks;
 *   sqlite — load the same CSV (same parser) into a table in one transaction, then
 *            `SELECT lhs FROM t GROUP BY lhs HAVING COUNT(DISTINCT rhs) > 1` per FD and the FK anti-join.
 * Plus the diagnostics latency of `checkSpec` after an edit of a 2,000-line spec whose 1M-row data is cached.
 * Times of the comparison are CPU time (HALLUPROBE_BENCH_CLOCK=wall for wall time), as the machine may be busy.
 * Goals: FD check within 2× SQLite's query time; peak memory under 1 GB for 1M rows; re-check under 100 ms.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse';
import { measure, report, type BenchRow } from './support.js';
import type { RelationDecl, ScalarType, SourceDecl } from '../src/core/spec/model.js';
import { loadSource } from '../src/core/data/load.js';
import { checkFd, checkFk } from '../src/core/data/checks.js';
import { DataCache } from '../src/core/data/cache.js';
import { checkSpec, dataOptionsFor } from '../src/core/spec/check.js';
import { loadSpec } from '../src/core/spec/load.js';
import { loadData } from '../src/core/data/index.js';

interface Attr {
    name: string;
    column: string;
    type: ScalarType | 'list';
}
interface Fk {
    attribute: string;
    file: string;
    column: string;
}
interface BenchCase {
    name: string;
    file: string;
    attributes: Attr[];
    fds: { lhs: string[]; rhs: string[] }[];
    fk?: Fk;
}
interface SideResult {
    loadMs: number;
    fdMs: number;
    fkMs: number;
    rows: number;
    fdViolations: number[];
    fkDangling: number;
    peakMB?: number;
}

const self = fileURLToPath(import.meta.url);
const noLoc = { file: self, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
const wall = () => performance.now();
/** This process's CPU time (all its threads, GC helpers included) in ms: fair to both sides on a busy machine. */
const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
};
/** The clock of the ours/SQLite comparison: CPU time unless HALLUPROBE_BENCH_CLOCK=wall. */
const useWall = process.env['HALLUPROBE_BENCH_CLOCK'] === 'wall';
const unit = useWall ? 'ms' : 'ms CPU';
let now = wall;

// ------------------------------------------------------------------ data
/** A deterministic PRNG (mulberry32) so every run benchmarks the same file. */
function random(seed: number): () => number {
    return () => {
        seed = (seed + 0x6d2b79f5) | 0;
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
const hash = (n: number) => {
    let h = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b);
    h ^= h >>> 13;
    return (Math.imul(h, 0xc2b2ae35) ^ (h >>> 16)) >>> 0;
};

/**
 * ERBench's movie_director layout: index, title, year as "2009.0", director, star, director's birth year.
 * ~700k titles (remakes share one), 50k directors (skewed: a few direct many), 200k stars; the FDs hold
 * except for 12 injected violations of each (and the natural ones of director, star, year → title).
 * A directors file (the FK target) leaves out 25 directors.
 */
function generateMovies(dir: string, rows: number): BenchCase {
    const file = path.join(dir, 'movies.csv');
    const rand = random(42);
    const fd = fs.openSync(file, 'w');
    let buffer = ',common_entity,entity3,entity2,entity1,entity4\n';
    for (let i = 0; i < rows; i++) {
        const title = Math.floor(rand() * 700_000);
        const year = 1920 + (rand() < 0.9 ? hash(title) % 105 : Math.floor(rand() * 105));
        let director = hash(title * 131 + year) % 50_000;
        director = Math.floor((director * director) / 50_000);
        let birth = 1880 + (hash(director) % 90);
        if (i % 83_000 === 1) birth++;
        if (i % 81_000 === 2) director = (director + 1) % 50_000;
        buffer += `${i},Title ${title},${year}.0,Director ${director},Star ${Math.floor(rand() * 200_000)},${birth}\n`;
        if (buffer.length > 1 << 20) {
            fs.writeSync(fd, buffer);
            buffer = '';
        }
    }
    fs.writeSync(fd, buffer);
    fs.closeSync(fd);
    const directors = path.join(dir, 'directors.csv');
    const names: string[] = ['name'];
    for (let d = 0; d < 50_000; d++) if (d % 2000 !== 7) names.push(`Director ${d}`);
    fs.writeFileSync(directors, names.join('\n') + '\n');
    return {
        name: `generated ${rows.toLocaleString('en')} rows`,
        file,
        attributes: [
            { name: 'title', column: 'common_entity', type: 'text' },
            { name: 'year', column: 'entity3', type: 'int' },
            { name: 'director', column: 'entity2', type: 'text' },
            { name: 'star', column: 'entity1', type: 'text' },
            { name: 'birth_year', column: 'entity4', type: 'int' },
        ],
        fds: [
            { lhs: ['director'], rhs: ['birth_year'] },
            { lhs: ['title', 'year'], rhs: ['director'] },
            { lhs: ['director', 'star', 'year'], rhs: ['title'] },
        ],
        fk: { attribute: 'director', file: directors, column: 'name' },
    };
}

/** The ERBench files with the FDs the paper used (see ../shared/data/erbench/README.md). */
function erbenchCases(dir: string): BenchCase[] {
    const a = (name: string, column: string, type: Attr['type'] = 'text'): Attr => ({ name, column, type });
    const fd = (lhs: string[], rhs: string[]) => ({ lhs, rhs });
    const specs: [string, Attr[], ReturnType<typeof fd>[], Fk?][] = [
        [
            'movie.csv',
            [a('title', 'common_entity'), a('year', 'entity3', 'int'), a('director', 'entity2'), a('star', 'entity1')],
            [fd(['director', 'star', 'year'], ['title'])],
        ],
        [
            'movie_director.csv',
            [
                a('title', 'common_entity'),
                a('year', 'entity3', 'int'),
                a('director', 'entity2'),
                a('birth_year', 'entity4', 'int'),
            ],
            [fd(['title', 'year'], ['director']), fd(['director'], ['birth_year'])],
        ],
        [
            'soccer.csv',
            [a('player', 'common_entity'), a('club', 'entity1'), a('jersey', 'entity3', 'int'), a('nationality', 'entity2')],
            [fd(['nationality', 'club', 'jersey'], ['player'])],
        ],
        [
            'airport.csv',
            [a('name', 'common_entity'), a('lat', 'entity1', 'real'), a('lon', 'entity2', 'real')],
            [fd(['lat', 'lon'], ['name'])],
        ],
        [
            'music.csv',
            [a('artist', 'common_entity'), a('title', 'entity1'), a('year', 'entity2', 'int')],
            [fd(['title', 'year'], ['artist'])],
        ],
        [
            'book.csv',
            [a('title', 'common_entity'), a('author', 'entity1'), a('published', 'entity2', 'date')],
            [fd(['author', 'published'], ['title'])],
        ],
        [
            'soccer_club_city.csv',
            [a('player', 'player_name'), a('club', 'club_name'), a('city', 'city_name')],
            [fd(['player'], ['club']), fd(['club'], ['city'])],
        ],
        ['olympic.csv', [a('city', 'city'), a('years', 'year', 'list')], [fd(['city'], ['years'])]],
        [
            'soccer_olympic.csv',
            [a('player', 'entity1'), a('club', 'entity2'), a('city', 'common_entity'), a('hosts', 'entity3', 'list')],
            [fd(['player'], ['club']), fd(['club'], ['city'])],
            { attribute: 'city', file: path.join(dir, 'olympic.csv'), column: 'city' },
        ],
        [
            'mc_movie.csv',
            [
                a('title', 'common_entity'),
                a('year', 'entity1', 'int'),
                a('director', 'entity2'),
                a('country', 'entity3'),
                a('genre', 'entity4'),
            ],
            [fd(['title', 'year'], ['director', 'country', 'genre'])],
        ],
        [
            'mc_airport.csv',
            [
                a('name', 'common_entity'),
                a('icao', 'entity1'),
                a('lat', 'entity2', 'real'),
                a('lon', 'entity3', 'real'),
                a('cc', 'entity4'),
            ],
            [fd(['name'], ['icao', 'lat', 'lon', 'cc'])],
        ],
        [
            'mc_book.csv',
            [
                a('title', 'common_entity'),
                a('author', 'entity1'),
                a('month', 'entity2'),
                a('year', 'entity3', 'int'),
                a('publisher', 'entity4'),
            ],
            [fd(['title', 'author'], ['month', 'year', 'publisher'])],
        ],
        [
            'mc_music.csv',
            [a('title', 'common_entity'), a('artist', 'entity1'), a('year', 'entity2', 'int'), a('genre', 'entity3')],
            [fd(['title', 'artist'], ['year', 'genre'])],
        ],
    ];
    return specs
        .filter(([f]) => fs.existsSync(path.join(dir, f)))
        .map(([f, attributes, fds, fk]) => ({
            name: `erbench ${f}`,
            file: path.join(dir, f),
            attributes,
            fds,
            ...(fk ? { fk } : {}),
        }));
}

// ------------------------------------------------------------------ the two sides
/**
 * The best of a few runs for small tables, where one cold run measures the JIT more than the work (both
 * sides are measured alike); one run for large tables.
 */
function best<T>(rows: number, work: () => T): [number, T] {
    let fastest = Infinity,
        result!: T;
    for (let i = 0; i < (rows < 100_000 ? 5 : 1); i++) {
        const start = now();
        result = work();
        fastest = Math.min(fastest, now() - start);
    }
    return [fastest, result];
}

function relation(name: string, source: string, attributes: Attr[]): RelationDecl {
    return {
        name,
        source,
        distinct: false,
        keys: [],
        loc: noLoc,
        attributes: attributes.map(x => ({
            name: x.name,
            column: x.column,
            loc: noLoc,
            type: x.type === 'list' ? { scalar: 'int', list: true } : { scalar: x.type, list: false },
        })),
    };
}
const csvSource = (name: string, file: string): SourceDecl => ({ name, format: 'csv', path: file, settings: {}, loc: noLoc });

async function runOurs(c: BenchCase): Promise<SideResult> {
    let start = now();
    const table = (await loadSource(csvSource('t', c.file), [relation('T', 't', c.attributes)])).get('T')!.table!;
    const target = c.fk
        ? (
              await loadSource(csvSource('r', c.fk.file), [
                  relation('R', 'r', [{ name: 'key', column: c.fk.column, type: 'text' }]),
              ])
          ).get('R')!.table!
        : undefined;
    const loadMs = now() - start;
    const [fdMs, fdViolations] = best(table.rowCount, () => c.fds.map(fd => checkFd(table, fd).length));
    const [fkMs, fkDangling] = best(table.rowCount, () =>
        c.fk && target
            ? checkFk(table, target, { from: { attributes: [c.fk.attribute] }, to: { attributes: ['key'] } }).length
            : 0,
    );
    return { loadMs, fdMs, fkMs, rows: table.rowCount, fdViolations, fkDangling };
}

const SQL_TYPE = { text: 'TEXT', int: 'INTEGER', real: 'REAL', bool: 'INTEGER', date: 'TEXT', list: 'TEXT' } as const;
const q = (name: string) => `"${name}"`;

/** Streams a CSV into a new table (cells trimmed, empty → NULL, as ours) inside one transaction. */
async function sqliteLoad(db: Database.Database, table: string, file: string, attrs: Attr[]): Promise<void> {
    db.exec(`CREATE TABLE ${q(table)} (${attrs.map(x => `${q(x.name)} ${SQL_TYPE[x.type]}`).join(', ')})`);
    const insert = db.prepare(`INSERT INTO ${q(table)} VALUES (${attrs.map(() => '?').join(', ')})`);
    let indices: number[] | undefined;
    db.exec('BEGIN');
    for await (const record of fs
        .createReadStream(file)
        .pipe(parse({ bom: true, relax_column_count: true, relax_quotes: true })) as AsyncIterable<string[]>) {
        if (!indices) {
            indices = attrs.map(x => record.indexOf(x.column));
            continue;
        }
        insert.run(
            indices.map(i => {
                const v = (record[i] ?? '').trim();
                return v === '' ? null : v;
            }),
        );
    }
    db.exec('COMMIT');
}

async function runSqlite(c: BenchCase): Promise<SideResult> {
    const dbFile = path.join(os.tmpdir(), `halluprobe-bench-${process.pid}.db`);
    const db = new Database(dbFile);
    try {
        db.pragma('journal_mode = OFF');
        db.pragma('synchronous = OFF');
        let start = now();
        await sqliteLoad(db, 't', c.file, c.attributes);
        if (c.fk) {
            await sqliteLoad(db, 'r', c.fk.file, [{ name: 'key', column: c.fk.column, type: 'text' }]);
            db.exec('CREATE INDEX r_key ON r ("key")');
        }
        const loadMs = now() - start;
        const rows = (db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;
        const [fdMs, fdViolations] = best(rows, () =>
            c.fds.map(fd => {
                const lhs = fd.lhs.map(q).join(', ');
                const rhs = fd.rhs.map(q).join(` || char(31) || `);
                const notNull = fd.lhs.map(x => `${q(x)} IS NOT NULL`).join(' AND ');
                return db.prepare(`SELECT ${lhs} FROM t WHERE ${notNull} GROUP BY ${lhs} HAVING COUNT(DISTINCT ${rhs}) > 1`).all()
                    .length;
            }),
        );
        const [fkMs, fkDangling] = best(rows, () =>
            c.fk
                ? (
                      db
                          .prepare(
                              `SELECT COUNT(DISTINCT t.${q(c.fk.attribute)}) AS n FROM t LEFT JOIN r ON r."key" = t.${q(c.fk.attribute)} WHERE r."key" IS NULL AND t.${q(c.fk.attribute)} IS NOT NULL`,
                          )
                          .get() as { n: number }
                  ).n
                : 0,
        );
        return { loadMs, fdMs, fkMs, rows, fdViolations, fkDangling };
    } finally {
        db.close();
        fs.rmSync(dbFile, { force: true });
    }
}

/** A 2,000-line spec over the generated file: the first check loads 1M rows; the one after an edit must not. */
async function runRecheck(c: BenchCase): Promise<SideResult> {
    const dir = path.dirname(c.file);
    const spec = path.join(dir, 'big.probe');
    const head = `source movies csv "${path.basename(c.file)}"\nrelation Movie from movies {\n${c.attributes.map(x => `    ${x.name}: ${x.type === 'list' ? 'list<int>' : x.type} = "${x.column}"`).join('\n')}\n}\n`;
    const lines = [head];
    for (let i = 0; lines.join('\n').split('\n').length < 2000; i++) {
        lines.push(
            `// fd number ${i}: each declared under its own name`,
            `fd Movie: title, year -> director as movie_director_${i}`,
        );
    }
    fs.writeFileSync(spec, lines.join('\n') + '\n');
    const cache = new DataCache();
    let start = now();
    await checkSpec(spec, { cache });
    const firstMs = now() - start;
    // Three edits, as a language server sees them (warm); the last one is reported, split into its parts.
    let specMs = 0,
        dataMs = 0,
        rows = 0;
    for (let edit = 0; edit < 3; edit++) {
        fs.appendFileSync(spec, `// edit ${edit}\n`);
        start = now();
        const loaded = await loadSpec(spec);
        specMs = now() - start;
        start = now();
        const data = await loadData(loaded.model, cache, undefined, dataOptionsFor(loaded, loaded.diagnostics));
        dataMs = now() - start;
        rows = data.tables.get('Movie')?.rowCount ?? 0;
    }
    return { loadMs: firstMs, fdMs: dataMs, fkMs: specMs, rows, fdViolations: [cache.parses], fkDangling: 0 };
}

// ------------------------------------------------------------------ driver
/** Runs one side of one case in a fresh process and returns what it measured. */
function child(side: 'ours' | 'sqlite' | 'recheck', c: BenchCase): SideResult {
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--child', side, JSON.stringify(c)], {
        encoding: 'utf8',
        maxBuffer: 16 << 20,
        stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = r.stdout.split('\n').find(l => l.startsWith('CASE '));
    if (r.status !== 0 || !line) throw new Error(`${side} ${c.name} failed (exit ${r.status})`);
    return JSON.parse(line.slice(5)) as SideResult;
}

function rowsFor(c: BenchCase, ours: SideResult, sqlite: SideResult): BenchRow[] {
    const big = c.name.startsWith('generated');
    const fdRatio = ours.fdMs / Math.max(sqlite.fdMs, 1e-3);
    const total = (s: SideResult) => s.loadMs + s.fdMs + s.fkMs;
    const rows: BenchRow[] = [
        {
            bench: 'data',
            case: `${c.name}: FD check (${c.fds.length} fd, ${ours.rows} rows)`,
            value: ours.fdMs,
            unit,
            reference: sqlite.fdMs,
            referenceName: 'SQLite GROUP BY HAVING COUNT(DISTINCT)',
            ratio: fdRatio,
            goal: '≤ 2× SQLite',
            met: fdRatio <= 2,
        },
        {
            bench: 'data',
            case: `${c.name}: load + checks`,
            value: total(ours),
            unit,
            reference: total(sqlite),
            referenceName: 'SQLite load + queries',
            ratio: total(ours) / total(sqlite),
            peakMB: ours.peakMB!,
        },
        {
            bench: 'data',
            case: `${c.name}: peak memory`,
            value: ours.peakMB!,
            unit: 'MB',
            reference: sqlite.peakMB!,
            referenceName: 'SQLite side',
            ratio: ours.peakMB! / sqlite.peakMB!,
            ...(big ? { goal: '< 1024 MB', met: ours.peakMB! < 1024 } : {}),
        },
    ];
    if (c.fk)
        rows.splice(1, 0, {
            bench: 'data',
            case: `${c.name}: FK check`,
            value: ours.fkMs,
            unit,
            reference: sqlite.fkMs,
            referenceName: 'SQLite anti-join',
            ratio: ours.fkMs / Math.max(sqlite.fkMs, 1e-3),
        });
    return rows;
}

async function main(): Promise<void> {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-bench-data-'));
    const rows: BenchRow[] = [];
    try {
        const generated = generateMovies(tmp, Number(process.env['HALLUPROBE_BENCH_ROWS'] ?? 1_000_000));
        const cases = [generated];
        console.error(
            `comparison clock: ${useWall ? 'wall time' : 'CPU time'}; machine load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
        );
        const erbench = path.resolve(path.dirname(self), '..', '..', 'shared', 'data', 'erbench');
        if (fs.existsSync(erbench)) cases.push(...erbenchCases(erbench));
        else console.error(`(ERBench files skipped: ${erbench} is absent)`);
        for (const c of cases) {
            const ours = child('ours', c),
                sqlite = child('sqlite', c);
            const same = ours.fdViolations.join() === sqlite.fdViolations.join() && ours.fkDangling === sqlite.fkDangling;
            console.error(
                `${c.name} (${unit}): ours load ${ours.loadMs.toFixed(0)} ms, FD ${ours.fdMs.toFixed(1)} ms, FK ${ours.fkMs.toFixed(1)} ms, ${ours.peakMB!.toFixed(0)} MB | ` +
                    `SQLite load ${sqlite.loadMs.toFixed(0)} ms, FD ${sqlite.fdMs.toFixed(1)} ms, FK ${sqlite.fkMs.toFixed(1)} ms, ${sqlite.peakMB!.toFixed(0)} MB | ` +
                    `violating groups ${ours.fdViolations.join('/')} vs ${sqlite.fdViolations.join('/')}, dangling ${ours.fkDangling} vs ${sqlite.fkDangling}${same ? '' : '  (DIFFERENT: typed coercion vs SQLite affinity)'}`,
            );
            rows.push(...rowsFor(c, ours, sqlite));
        }
        const recheck = child('recheck', generated);
        console.error(
            `re-check: first ${recheck.loadMs.toFixed(0)} ms; after an edit: language ${recheck.fkMs.toFixed(1)} ms + data ${recheck.fdMs.toFixed(1)} ms; parses ${recheck.fdViolations[0]}`,
        );
        rows.push(
            {
                bench: 'data',
                case: `data checks after a spec edit (2,000-line spec, ${recheck.rows} rows cached, ${recheck.fdViolations[0]} parse)`,
                value: recheck.fdMs,
                unit: 'ms',
                reference: recheck.loadMs,
                referenceName: 'first check (loads the data)',
                ratio: recheck.fdMs / recheck.loadMs,
                goal: '< 100 ms',
                met: recheck.fdMs < 100,
                peakMB: recheck.peakMB!,
            },
            {
                bench: 'data',
                case: "checkSpec after a spec edit: language + data (language part is not the data room's)",
                value: recheck.fkMs + recheck.fdMs,
                unit: 'ms',
                goal: '< 100 ms',
                met: recheck.fkMs + recheck.fdMs < 100,
            },
        );
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    report(rows);
}

const at = process.argv.indexOf('--child');
if (at >= 0) {
    const side = process.argv[at + 1]!,
        c = JSON.parse(process.argv[at + 2]!) as BenchCase;
    if (side !== 'recheck' && !useWall) now = cpu;
    const { result, peakMB } = await measure(() =>
        side === 'ours' ? runOurs(c) : side === 'sqlite' ? runSqlite(c) : runRecheck(c),
    );
    console.log(`CASE ${JSON.stringify({ ...result, peakMB })}`);
} else await main();
