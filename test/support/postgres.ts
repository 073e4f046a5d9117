/**
 * A throwaway PostgreSQL server for tests and benchmarks: Debian's binaries, a fresh temporary folder whose data
 * folder is a copy of one initdb made once per machine (as the `postgres` user: initdb refuses root; without its
 * closing fsync, as the folders are thrown away; see `initializedTemplate`),
 * listening on 127.0.0.1 on a free port with fsync off,
 * password authentication over TCP. `stop()` shuts it down and removes the folder.
 *
 * Without PostgreSQL installed, `startPostgres` returns undefined locally (the caller skips and says so);
 * in CI (env CI set) it throws: a missing server there is a broken setup, never a skipped test.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from './ports.js';

export interface PostgresServer {
    port: number;
    user: string;
    password: string;
    /** `postgres://user@127.0.0.1:port/db` — no password in it; set PGPASSWORD (see `env`). */
    url(db: string): string;
    env: Record<string, string>;
    createDatabase(name: string): void;
    /** Runs SQL in a database through psql (as the superuser, over TCP). */
    sql(db: string, text: string): string;
    /** Shuts the server down as an operator does (`pg_ctl stop -m fast`), keeping its data; `restart` starts it again on the same port. */
    shutdown(): Promise<void>;
    restart(): Promise<void>;
    stop(): void;
}

function binDir(): string | undefined {
    const root = '/usr/lib/postgresql';
    if (!fs.existsSync(root)) return undefined;
    const versions = fs
        .readdirSync(root)
        .filter(v => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a));
    return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

/** PostgreSQL's binaries are here (in CI they must be: `startPostgres` throws there without them). */
export const postgresInstalled = () => binDir() !== undefined || Boolean(process.env.CI);

const asPostgres = (bin: string, args: string[]) => {
    const r = spawnSync('runuser', ['-u', 'postgres', '--', bin, ...args], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${path.basename(bin)} failed: ${r.stderr || r.stdout}`);
    return r.stdout;
};

/** initdb's options: every server's data folder is a copy of one folder initialized with them. */
const initdbArgs = (pwfile: string) => [
    '--no-sync',
    '-U',
    'postgres',
    `--pwfile=${pwfile}`,
    '--auth-host=scram-sha-256',
    '--auth-local=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
];

/**
 * The data folder that initdb makes (superuser `postgres` with `password`), made once and shared by every test
 * process: in os.tmpdir(), keyed by the server's version and initdb's options and the password, so a change of either
 * makes a new one. Made in a folder of its own and renamed into place (atomic: a process sees the whole template or
 * none; when two make it at once, the first rename wins and the other drops its copy). Servers copy it
 * (`cp -a`: ~0.1 CPU-s) instead of running initdb (~1.3 CPU-s) each.
 */
function initializedTemplate(bin: string, password: string): string {
    const version = asPostgres(path.join(bin, 'initdb'), ['--version']).trim();
    const key = createHash('sha256')
        .update(JSON.stringify([version, initdbArgs('pw'), password]))
        .digest('hex')
        .slice(0, 16);
    const template = path.join(tmpdir(), `hp-pg-template-${key}`);
    const data = path.join(template, 'data');
    if (fs.existsSync(data)) return data;
    const making = fs.mkdtempSync(`${template}.making-`);
    try {
        fs.chmodSync(making, 0o755);
        execFileSync('chown', ['postgres', making]);
        const pwfile = path.join(making, 'pw');
        fs.writeFileSync(pwfile, password);
        execFileSync('chown', ['postgres', pwfile]);
        asPostgres(path.join(bin, 'initdb'), ['-D', path.join(making, 'data'), ...initdbArgs(pwfile)]);
        fs.rmSync(pwfile);
        try {
            fs.renameSync(making, template);
        } catch (e) {
            // Another process renamed its template into place first: use that one.
            if (!fs.existsSync(data)) throw e;
        }
    } finally {
        fs.rmSync(making, { recursive: true, force: true });
    }
    return data;
}

/**
 * `durable`: the server's own defaults (fsync, synchronous commit, full page writes), for benchmarks that compare
 * it with a store that keeps its commits; tests run without them.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresServer | undefined> {
    const bin = binDir();
    if (!bin) {
        if (process.env.CI)
            throw new Error(
                'PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); .ci/run must apt-get install postgresql',
            );
        return undefined;
    }
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'hp-pg-'));
    fs.chmodSync(dir, 0o755);
    execFileSync('chown', ['postgres', dir]);
    // The superuser's password: initdb set it in the template (from its own password file, removed after), so each
    // copy has it; the template's key includes it.
    const password = 'test-secret';
    const data = path.join(dir, 'data');
    const port = await freePort();
    let started = false;
    const pgCtl = (args: string[]) =>
        new Promise<void>((resolve, reject) => {
            const child = spawn('runuser', ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), '-D', data, ...args], {
                stdio: 'ignore',
            });
            child.on('error', reject);
            child.on('close', code => (code === 0 ? resolve() : reject(new Error(`pg_ctl ${args.join(' ')} exited ${code}`))));
        });
    const startArgs = () => [
        '-l',
        path.join(dir, 'log'),
        '-w',
        '-o',
        `-p ${port} -h 127.0.0.1 -k ${dir}${options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off'}`,
        'start',
    ];
    const stop = () => {
        if (started)
            spawnSync('runuser', ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop'], {
                encoding: 'utf8',
            });
        started = false;
        fs.rmSync(dir, { recursive: true, force: true });
    };
    try {
        // A copy of the run's one initdb (`cp -a` keeps the postgres owner and the 0700 mode the server demands).
        execFileSync('cp', ['-a', initializedTemplate(bin, password), data]);
        asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, ...startArgs()]);
        started = true;
    } catch (e) {
        stop();
        throw e;
    }
    process.once('exit', stop);
    const env = { PGPASSWORD: password };
    const psql = (db: string, text: string) => {
        const r = spawnSync(
            path.join(bin, 'psql'),
            [
                '-h',
                '127.0.0.1',
                '-p',
                String(port),
                '-U',
                'postgres',
                '-d',
                db,
                '-v',
                'ON_ERROR_STOP=1',
                '-q',
                '-A',
                '-t',
                '-c',
                text,
            ],
            { encoding: 'utf8', env: { ...process.env, ...env } },
        );
        if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
        return r.stdout;
    };
    return {
        port,
        user: 'postgres',
        password,
        env,
        url: db => `postgres://postgres@127.0.0.1:${port}/${db}`,
        createDatabase: name => {
            psql('postgres', `CREATE DATABASE "${name}"`);
        },
        sql: psql,
        shutdown: async () => {
            await pgCtl(['-m', 'fast', '-w', 'stop']);
            started = false;
        },
        restart: async () => {
            await pgCtl(startArgs());
            started = true;
        },
        stop,
    };
}
