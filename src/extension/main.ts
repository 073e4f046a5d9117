/**
 * Activation: commands first (they work before the language server is up), then the Test Explorer, the
 * inline results and the status bar, then the language client. Extension-lifetime disposables live in the
 * Ctx; client-lifetime ones (the client, its watcher) in the LanguageServer, which "Restart Language Server"
 * renews.
 * The time from activate to "ready" (commands and client started) is logged and kept for the tests.
 */
import * as vscode from 'vscode';
import { Ctx } from './context.js';
import { SpecState } from './state.js';
import { Runs } from './runs.js';
import { registerCommands, type Services } from './commands/index.js';
import { Testing } from './testing/controller.js';
import { RowFactsHover } from './row-hover.js';
import { ResultsLens } from './codelens.js';
import { LanguageServer } from './client.js';
import { DatabasePasswords } from './secrets.js';
import { useSavedPasswords } from '../core/data/light.js';

let current: Ctx | undefined;

export interface HalluProbeApi {
    /** Milliseconds from activate() to commands, Test Explorer, CodeLens and status bar registered. */
    activationMs: () => number | undefined;
    /** Milliseconds from activate() to the language client's handshake with the server done. */
    serverReadyMs: () => number | undefined;
    /** How many times the language server was started (restarts included). */
    serverStarts: () => number;
    ready: Promise<void>;
    services: Services;
}

export function activate(context: vscode.ExtensionContext): HalluProbeApi {
    const started = performance.now();
    const ctx = new Ctx(context);
    current = ctx;
    context.subscriptions.push(ctx);
    const state = ctx.push(new SpecState(ctx));
    const runs = ctx.push(new Runs(ctx, state));
    // Saved database passwords: the engine in this host (runs, preview, import) reads them from memory.
    const passwords = new DatabasePasswords(context.secrets, context.globalState);
    useSavedPasswords(passwords.get);
    const services: Services = { ctx, state, runs, passwords };
    registerCommands(services);
    services.testing = new Testing(services);
    const lens = new ResultsLens(services);
    ctx.push(vscode.languages.registerCodeLensProvider({ language: 'probe' }, lens));
    ctx.push(vscode.languages.registerHoverProvider({ language: 'probe' }, lens));
    // A data row's key: its facts across families in the latest run of a spec reading the file (docs/facts.md).
    ctx.push(vscode.languages.registerHoverProvider({ scheme: 'file', pattern: '**/*.csv' }, new RowFactsHover(services)));
    ctx.push(
        vscode.workspace.onDidGrantWorkspaceTrust(() => {
            ctx.output.info('workspace trusted: runs are enabled');
            services.testing?.refreshProfiles();
            services.server?.sendSourceAccess();
        }),
    );

    const activationMs = performance.now() - started;
    ctx.setContext('halluprobe.ready', true);
    let serverReadyMs: number | undefined;
    const server = (services.server = ctx.push(
        new LanguageServer(
            ctx,
            () => state.sources.snapshot(),
            () => passwords.all(),
        ),
    ));
    state.sources.onDidAllow(() => services.server?.sendSourceAccess());
    // The server starts with the saved passwords, so its first check of a database source already uses them.
    const loaded = passwords.load().catch(err => {
        ctx.output.warn(`could not read the saved database passwords: ${err instanceof Error ? err.message : String(err)}`);
    });
    const ready = loaded
        .then(() => server.start())
        .then(
            () => {
                serverReadyMs = performance.now() - started;
            },
            err => {
                ctx.output.error(`the language server did not start: ${err instanceof Error ? err.message : String(err)}`);
            },
        )
        .then(() => {
            ctx.output.info(
                `activated in ${activationMs.toFixed(1)} ms (activate → commands ready); language server ready after ${serverReadyMs?.toFixed(0) ?? '—'} ms`,
            );
        });
    void services.testing.discover();
    return {
        activationMs: () => activationMs,
        serverReadyMs: () => serverReadyMs,
        serverStarts: () => services.server?.starts ?? 0,
        ready,
        services,
    };
}

export function deactivate(): void {
    current?.dispose();
    current = undefined;
}
