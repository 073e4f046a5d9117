/**
 * One e2e session: the local OpenAI-compatible test server (its own process), a workspace copy of the movie
 * example pointing at it, code-server with the extension, and headless Chromium on the workbench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath, codeServerEntry, e2ePrefix, startCodeServer, type CodeServer } from './code-server.js';
import { ARTIFACTS, prepareWorkspace, REPO } from './workspace.js';
import { tsImport } from '../../support/ts-loader.js';

export const CHROMIUM_FLAGS = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
];

/** Why the e2e tier cannot run here, or undefined. In CI (or HALLUPROBE_E2E=1) a missing piece is a failure. */
export function missingPrerequisite(): string | undefined {
    if (!codeServerEntry())
        return `code-server is not installed under ${e2ePrefix()} (run bash scripts/e2e-setup.sh; HALLUPROBE_E2E_PREFIX chooses the folder)`;
    if (!chromiumPath()) return 'Chromium is not installed at /usr/bin/chromium (the setup script apt-installs it)';
    if (!fs.existsSync(path.join(REPO, 'dist/extension.cjs'))) return 'the extension is not built (npm run build)';
    return undefined;
}

export const mustRun = () => process.env.CI !== undefined || process.env.HALLUPROBE_E2E === '1';

export interface ModelServer {
    url: string;
    process: ChildProcess;
    stop(): void;
}

/** The runner helper's test server as a child process; every request gets the same fixed answer (`extra`: more flags, e.g. --latency). */
export async function startModelServer(answer: string, extra: string[] = []): Promise<ModelServer> {
    // This Node with a TypeScript loader (test/support/ts-loader.ts): one process (the tsx command starts a second Node).
    const child = spawn(
        process.execPath,
        [...tsImport(), path.join(REPO, 'test/support/openai-server-cli.ts'), '--port', '0', '--answer', answer, ...extra],
        { stdio: ['ignore', 'pipe', 'pipe'], cwd: REPO },
    );
    const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
            out += d.toString();
            const line = out.split('\n')[0]!;
            if (out.includes('\n')) resolve(line.trim());
        });
        child.once('exit', code => reject(new Error(`the test model server exited (${code}) before printing its URL`)));
        setTimeout(() => reject(new Error('the test model server did not start within 30 s')), 30_000).unref();
    });
    return {
        url,
        process: child,
        stop: () => {
            child.kill('SIGTERM');
        },
    };
}

/** The extension's log and code-server's, kept under test-artifacts/e2e/logs/ for reading after a failure. */
function keepLogs(root: string): void {
    const dest = path.join(ARTIFACTS, 'logs', path.basename(root));
    const walk = (dir: string): string[] =>
        fs.existsSync(dir)
            ? fs
                  .readdirSync(dir, { withFileTypes: true })
                  .flatMap(e => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
            : [];
    for (const f of walk(path.join(root, 'user-data', 'logs')).filter(f =>
        /HalluProbe\.log$|exthost\.log$|remoteagent\.log$/.test(f),
    )) {
        fs.mkdirSync(dest, { recursive: true });
        fs.copyFileSync(f, path.join(dest, path.basename(f)));
    }
}

export interface Session {
    server: CodeServer;
    browser: Browser;
    page: Page;
    workspace: string;
    close(): Promise<void>;
}

/**
 * `prepare` fills the workspace folder (default: the movie example with its injected FD violation); `beforeOpen` does
 * what must be done in it before the workbench opens (offline CLI runs), while code-server and the browser start.
 */
export async function openSession(opts: {
    modelEndpoint?: string;
    env?: Record<string, string>;
    settings?: Record<string, unknown>;
    prepare?: (dir: string, modelEndpoint?: string) => string;
    beforeOpen?: (workspace: string) => Promise<void>;
}): Promise<Session> {
    const workspace = (opts.prepare ?? prepareWorkspace)(
        fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-ws-')),
        opts.modelEndpoint,
    );
    // Side by side: code-server does not look at the workspace before a workbench connects.
    const [started, launched, prepared] = await Promise.allSettled([
        startCodeServer({ workspace, env: opts.env, settings: opts.settings }),
        chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS }),
        opts.beforeOpen?.(workspace),
    ]);
    if (started.status === 'rejected' || launched.status === 'rejected' || prepared.status === 'rejected') {
        if (launched.status === 'fulfilled') await launched.value.close().catch(() => undefined);
        if (started.status === 'fulfilled') await started.value.stop();
        for (const r of [started, launched, prepared]) if (r.status === 'rejected') throw r.reason;
    }
    const server = (started as PromiseFulfilledResult<CodeServer>).value;
    const browser = (launched as PromiseFulfilledResult<Browser>).value;
    const page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
    return {
        server,
        browser,
        page,
        workspace,
        close: async () => {
            await browser.close().catch(() => undefined);
            await server.stop();
            keepLogs(server.root);
            fs.rmSync(server.root, { recursive: true, force: true });
            fs.rmSync(workspace, { recursive: true, force: true });
        },
    };
}

/**
 * The CLI in this process (`halluprobe args…`), its printing silenced; its exit code. From its bundle when the run
 * has built it (HALLUPROBE_CLI_BUNDLE, as `npm test` sets: test/support/cli-path.ts), else from the sources (their
 * first import compiled the whole engine in this process: 7 s on a loaded machine).
 */
export async function cliQuietly(args: string[]): Promise<number> {
    const { main } = (
        process.env.HALLUPROBE_CLI_BUNDLE
            ? await import(pathToFileURL(path.join(REPO, 'dist', 'cli.mjs')).href)
            : await import('../../../src/cli/main.js')
    ) as typeof import('../../../src/cli/main.js');
    const log = console.log,
        error = console.error;
    console.log = () => undefined;
    console.error = () => undefined;
    try {
        return await main(args);
    } finally {
        console.log = log;
        console.error = error;
    }
}
