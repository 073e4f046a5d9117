/**
 * A throwaway PostgreSQL server for tests and benchmarks: Debian's binaries, initdb as the `postgres` user
 * (initdb refuses root; without its closing fsync, as the folder is thrown away) in a fresh temporary folder,
 * listening on 127.0.0.1 on a free port with fsync off,
 * password authentication over TCP. `stop()` shuts it down and removes the folder.
 *
 * Without PostgreSQL installed, `startPostgres` returns undefined locally (the caller skips and says so);
 * in CI (env CI set) it throws: a missing server there is a broken setup, never a skipped test.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
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
    const password = 'test-secret';
    const pwfile = path.join(dir, 'pw');
    fs.writeFileSync(pwfile, password);
    execFileSync('chown', ['postgres', pwfile]);
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
        asPostgres(path.join(bin, 'initdb'), [
            '--no-sync',
            '-D',
            data,
            '-U',
            'postgres',
            `--pwfile=${pwfile}`,
            '--auth-host=scram-sha-256',
            '--auth-local=trust',
            '-E',
            'UTF8',
            '--locale=C.UTF-8',
        ]);
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
