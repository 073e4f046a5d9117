/**
 * Starts a real VS Code (code-server, installed by ../shared/scripts/setup-vscode-e2e.sh) on 127.0.0.1 with
 * fresh user-data and extensions directories, the HalluProbe extension (this repository, built) and the
 * test-only companion extension installed, and a workspace folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../support/ports.js';

export const REPO = path.resolve(import.meta.dirname, '../../..');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
};

/** Where scripts/e2e-setup.sh installs code-server: $HALLUPROBE_E2E_PREFIX (the one variable .ci/run, the setup script and the tests honour), or ~/.cache/vscode-e2e. */
export function e2ePrefix(env: NodeJS.ProcessEnv = process.env): string {
    return env.HALLUPROBE_E2E_PREFIX || path.join(os.homedir(), '.cache/vscode-e2e');
}

/** The code-server entry script: $HALLUPROBE_CODE_SERVER, or the one under the e2e prefix. */
export function codeServerEntry(env: NodeJS.ProcessEnv = process.env): string | undefined {
    const candidates = [env.HALLUPROBE_CODE_SERVER, path.join(e2ePrefix(env), 'node_modules/code-server/out/node/entry.js')];
    return candidates.find((c): c is string => !!c && fs.existsSync(c));
}

export function chromiumPath(): string | undefined {
    return [process.env.HALLUPROBE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
        (c): c is string => !!c && fs.existsSync(c),
    );
}

export { freePort } from '../../support/ports.js';

export interface CodeServer {
    url: string;
    root: string;
    workspace: string;
    log: () => string;
    stop(): Promise<void>;
}

export interface StartOptions {
    /** Folder opened in the workbench. */
    workspace: string;
    /** Extra environment for the server and its extension host. */
    env?: Record<string, string>;
    settings?: Record<string, unknown>;
}

/** Links an extension folder into the extensions dir under the name VS Code expects (publisher.name-version). */
function install(extensionsDir: string, folder: string): void {
    const p = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
        publisher: string;
        name: string;
        version: string;
    };
    fs.symlinkSync(folder, path.join(extensionsDir, `${p.publisher}.${p.name}-${p.version}`), 'dir');
}

export async function startCodeServer(opts: StartOptions): Promise<CodeServer> {
    const entry = codeServerEntry();
    if (!entry)
        throw new Error(
            `code-server is not installed under ${e2ePrefix()}: run \`bash scripts/e2e-setup.sh\` first (it honours HALLUPROBE_E2E_PREFIX).`,
        );
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-e2e-'));
    const userData = path.join(root, 'user-data');
    const extensions = path.join(root, 'extensions');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    fs.mkdirSync(extensions, { recursive: true });
    fs.writeFileSync(
        path.join(userData, 'User', 'settings.json'),
        JSON.stringify(
            {
                'workbench.startupEditor': 'none',
                'workbench.tips.enabled': false,
                'telemetry.telemetryLevel': 'off',
                'extensions.autoUpdate': false,
                'extensions.autoCheckUpdates': false,
                'update.mode': 'none',
                'security.workspace.trust.enabled': false,
                'workbench.enableExperiments': false,
                'chat.disableAIFeatures': true,
                'git.enabled': false,
                'editor.codeLens': true,
                'window.dialogStyle': 'custom',
                'files.simpleDialog.enable': true,
                'workbench.colorTheme': 'Default Dark Modern',
                ...opts.settings,
            },
            null,
            2,
        ),
    );
    install(extensions, REPO);
    install(extensions, path.join(REPO, 'test/vscode/companion'));
    const port = await freePort();
    const node = path.join(REPO, 'node_modules/.bin/node');
    const child: ChildProcess = spawn(
        fs.existsSync(node) ? node : process.execPath,
        [
            entry,
            '--auth',
            'none',
            '--bind-addr',
            `127.0.0.1:${port}`,
            '--user-data-dir',
            userData,
            '--extensions-dir',
            extensions,
            '--disable-telemetry',
            '--disable-update-check',
            '--disable-workspace-trust',
            '--disable-getting-started-override',
            opts.workspace,
        ],
        { env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout!.on('data', (d: Buffer) => {
        output += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => {
        output += d.toString();
    });
    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(opts.workspace)}`;
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, child, () => output);
    return {
        url,
        root,
        workspace: opts.workspace,
        log: () => output,
        stop: () =>
            new Promise<void>(resolve => {
                if (child.exitCode !== null) {
                    resolve();
                    return;
                }
                child.once('exit', () => resolve());
                child.kill('SIGTERM');
                setTimeout(() => {
                    if (child.exitCode === null) child.kill('SIGKILL');
                }, 5000).unref();
            }),
    };
}

async function waitForHttp(url: string, child: ChildProcess, log: () => string): Promise<void> {
    for (let i = 0; i < 300; i++) {
        if (child.exitCode !== null) throw new Error(`code-server exited (${child.exitCode}):\n${log()}`);
        try {
            const res = await fetch(url);
            if (res.ok) return;
        } catch {
            /* not listening yet */
        }
        await new Promise(r => setTimeout(r, 100));
    }
    throw new Error(`code-server did not answer on ${url} within 30 s:\n${log()}`);
}

export const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;
