/**
 * Reading a PostgreSQL source (a table or a query) with `pg` as a binary COPY streamed in batches, so memory
 * stays flat however large the table and the wire costs what `COPY … TO STDOUT` costs. Values arrive typed
 * for numbers and booleans and as text for everything else (dates stay as written). The password never sits in the spec:
 * it comes from the variable the source names with `password_env`, a password the editor saved for the database,
 * or pg's own PGPASSWORD / ~/.pgpass. Every statement runs under a timeout (`statement_timeout`, ms).
 */
import * as fs from 'node:fs';
import { lazyPackage } from '../lazy-package.js';
import type pg from 'pg';
import { CopyOutQuery, reusedReadStream } from './postgres-wire.js';
import type { SourceDecl } from '../spec/model.js';
import type { SourceProblem } from '../problem.js';

const pgPackage = lazyPackage<typeof pg>('pg', () => require('pg'));
/** pg's client, loaded when a PostgreSQL source is first read: the language server loads the data room for every spec. */
export function pgClient(): typeof pg.Client {
    return pgPackage().Client;
}

/** The code of every problem of a postgres source's read. */
const CODE = 'postgres-error';
import { PASSWORD_REMEDY, passwordInUrl, safeUrl, savedPassword } from './postgres-url.js';
import { BinaryCopyDecoder, copyStatement, withoutTerminator, type RowBatch } from './postgres-copy.js';
import { POSTGRES_SETTINGS } from './settings.js';

export interface PostgresResult {
    header: string[];
    problems: SourceProblem[];
    complete: boolean;
}

const BATCH = 8192;

/** `"schema"."table"` from `schema.table` or `table`. */
function quoteQualified(name: string): string {
    const dot = name.indexOf('.');
    const parts = dot > 0 && !name.startsWith('"') ? [name.slice(0, dot), name.slice(dot + 1)] : [name];
    return parts.map(p => `"${p.replace(/^"|"$/g, '').replace(/"/g, '""')}"`).join('.');
}

/**
 * Client settings for a source: its URL, the statement timeout, and its password, the first found of: the
 * variable named by `password_env` (when set), the password the editor saved for this database; with neither,
 * pg's own PGPASSWORD, then ~/.pgpass.
 */
export function clientConfig(source: Pick<SourceDecl, 'path' | 'settings'>): pg.ClientConfig {
    const settings = POSTGRES_SETTINGS.read(source.settings);
    const password =
        (settings.password_env !== undefined ? process.env[settings.password_env] : undefined) ?? savedPassword(source.path);
    const timeout = settings.statement_timeout;
    const config: pg.ClientConfig = {
        // The server ends a statement past its timeout. No client-side query_timeout: pg arms it on every query
        // and clears it only through the query's callback, which a cursor never calls, so each read left a
        // live timer that held the process open for the whole timeout (every CLI call took 65 s to exit).
        // A dead connection is noticed by TCP keepalive instead.
        connectionString: source.path,
        statement_timeout: timeout,
        connectionTimeoutMillis: 10_000,
        keepAlive: true,
        application_name: 'halluprobe',
    };
    if (password !== undefined) {
        // pg lets the URL's (empty) password override `password`, so the secret goes into the in-memory URL.
        try {
            const url = new URL(source.path);
            url.password = encodeURIComponent(password);
            config.connectionString = url.toString();
        } catch {
            /* not a URL: pg reports it when connecting */
        }
    }
    return config;
}

/** Why a connection failed, in the user's terms (unreachable, no or wrong password, no such database). */
export function connectionProblem(e: unknown, url: string): SourceProblem {
    const err = e as { code?: string; message?: string };
    const where = safeUrl(url);
    const message =
        err.code === 'ECONNREFUSED' ||
        err.code === 'ENOTFOUND' ||
        err.code === 'EHOSTUNREACH' ||
        /timeout/i.test(err.message ?? '')
            ? `cannot reach the PostgreSQL server at ${where} (${err.message}); check host and port and that the server is running`
            : err.code === '28P01' || err.code === '28000'
              ? `PostgreSQL refused the credentials for ${where} (${err.message}); ${PASSWORD_REMEDY}`
              : // pg meets a password request with no password as a plain Error, without a code.
                /client password must be a string/.test(err.message ?? '')
                ? `PostgreSQL asks for a password for ${where} and none was given; ${PASSWORD_REMEDY}`
                : err.code === '3D000'
                  ? `${err.message} at ${where}; check the database name in the URL`
                  : `could not connect to ${where}: ${err.message}`;
    return { severity: 'error', code: CODE, lines: [], message };
}

/** Connects, or returns the problem; the caller ends the client. */
export async function connect(source: Pick<SourceDecl, 'path' | 'settings'>): Promise<pg.Client | SourceProblem> {
    if (passwordInUrl(source.path)) {
        return {
            severity: 'error',
            code: CODE,
            lines: [],
            message: `has a password in its URL; remove it and ${PASSWORD_REMEDY}: a spec is shared, a password is not`,
        };
    }
    // pg reads sslcert / sslkey / sslrootcert files while it parses the URL: a missing one throws there.
    for (const name of ['sslcert', 'sslkey', 'sslrootcert']) {
        let file: string | null = null;
        try {
            file = new URL(source.path).searchParams.get(name);
        } catch {
            /* not a URL: pg reports it */
        }
        if (file && !fs.existsSync(file))
            return {
                severity: 'error',
                code: CODE,
                lines: [],
                message: `names ${name}=${file}, which does not exist; give the path of the file (absolute, or relative to where halluprobe runs) or remove the parameter`,
            };
    }
    let client: pg.Client;
    try {
        client = new (pgClient())({ ...clientConfig(source), stream: reusedReadStream() });
    } catch (e) {
        return {
            severity: 'error',
            code: CODE,
            lines: [],
            message: `has settings pg cannot use (${(e as Error).message}); check the URL's parameters`,
        };
    }
    client.on('error', () => undefined); // a dropped connection surfaces as the failing query's error
    try {
        await client.connect();
        return client;
    } catch (e) {
        await client.end().catch(() => undefined);
        return connectionProblem(e, source.path);
    }
}

function statementOf(source: SourceDecl): string | SourceProblem {
    if (source.query !== undefined) return withoutTerminator(source.query);
    if (source.table === undefined)
        return {
            severity: 'error',
            code: CODE,
            lines: [],
            message: 'needs `table "schema.name"` or `query "select …"` to say which rows to read',
        };
    return `SELECT * FROM ${quoteQualified(source.table)}`;
}

function queryProblem(e: unknown, source: SourceDecl): SourceProblem {
    const err = e as { code?: string; message?: string };
    if (err.code === '42P01' && source.table !== undefined)
        return { severity: 'error', code: CODE, lines: [], message: `has no table '${source.table}' (${err.message})` };
    if (err.code === '57014')
        return {
            severity: 'error',
            code: CODE,
            lines: [],
            message: `the query ran past the statement timeout (${POSTGRES_SETTINGS.read(source.settings).statement_timeout} ms); raise \`statement_timeout\` or narrow the query`,
        };
    return { severity: 'error', code: CODE, lines: [], message: `query failed: ${err.message}` };
}

/**
 * Reads every row of a PostgreSQL source as a binary COPY, in column batches (see postgres-copy.ts); `onHeader`
 * gets the column names before the first batch. A row's line is its 1-based position. The column types come
 * from describing the statement first (`LIMIT 0`), which is also all `headerOnly` does.
 */
export async function streamPostgres(
    source: SourceDecl,
    onHeader: (header: string[], expectedRows?: number) => void,
    onBatch: (batch: RowBatch) => void,
    signal?: AbortSignal,
    headerOnly = false,
): Promise<PostgresResult> {
    const statement = statementOf(source);
    if (typeof statement !== 'string') return { header: [], problems: [statement], complete: false };
    const client = await connect(source);
    if (!(client instanceof pgClient())) return { header: [], problems: [client], complete: false };
    let header: string[] = [];
    try {
        const described = await client.query({ text: `SELECT * FROM (${statement}) AS q LIMIT 0`, rowMode: 'array' });
        const fields = described.fields.map(f => ({ name: f.name, dataTypeID: f.dataTypeID }));
        if (fields.length === 0)
            return {
                header: [],
                problems: [
                    { severity: 'error', code: CODE, lines: [], message: 'has no columns to read (the query selects none)' },
                ],
                complete: false,
            };
        header = fields.map(f => f.name);
        if (headerOnly) {
            onHeader(header);
            return { header, problems: [], complete: true };
        }
        onHeader(header, await plannedRows(client, statement));
        signal?.throwIfAborted();
        const decoder = new BinaryCopyDecoder(fields, onBatch, BATCH);
        const copy = new CopyOutQuery(
            copyStatement(statement, fields),
            (buf, start, end) => decoder.take(buf, start, end),
            () => decoder.flush(),
        );
        // A cancel drops the connection, which ends the COPY on the server too.
        const abort = () => {
            copy.cancel(signal?.reason);
            (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
        };
        signal?.addEventListener('abort', abort, { once: true });
        try {
            await client.query(copy).done;
        } finally {
            signal?.removeEventListener('abort', abort);
        }
        decoder.end();
        return { header, problems: [], complete: true };
    } catch (e) {
        if (signal?.aborted) throw signal.reason;
        return { header: [], problems: [queryProblem(e, source)], complete: false };
    } finally {
        await client.end().catch(() => undefined);
    }
}

/** The planner's estimate of the rows a statement returns (a hint for sizing columns; 0 when unknown). */
async function plannedRows(client: pg.Client, statement: string): Promise<number> {
    try {
        const result = await client.query({ text: `EXPLAIN (FORMAT JSON) ${statement}`, rowMode: 'array' });
        const plan = (result.rows[0] as [[{ Plan?: { 'Plan Rows'?: number } }]])[0][0];
        const rows = plan.Plan?.['Plan Rows'];
        return typeof rows === 'number' && Number.isFinite(rows) && rows > 0 ? rows : 0;
    } catch {
        return 0;
    }
}

/**
 * A cheap change signal for the data cache: for a table, its row count and the newest transaction that
 * wrote a row (max xmin); with a `version_column` setting, that column's maximum. Undefined for a query
 * (always read again) or when the server cannot be asked.
 */
export async function changeSignal(source: SourceDecl): Promise<string | undefined> {
    if (source.table === undefined) return undefined;
    const client = await connect(source);
    if (!(client instanceof pgClient())) return undefined;
    try {
        const version = POSTGRES_SETTINGS.read(source.settings).version_column;
        const column = version !== undefined ? `max(${quoteQualified(version)})::text` : `max(xmin::text::bigint)::text`;
        const result = await client.query({
            text: `SELECT count(*)::text AS n, ${column} AS v FROM ${quoteQualified(source.table)}`,
            rowMode: 'array',
        });
        const [n, v] = result.rows[0] as [string, string | null];
        return `pg:${n}:${v ?? ''}`;
    } catch {
        return undefined;
    } finally {
        await client.end().catch(() => undefined);
    }
}
