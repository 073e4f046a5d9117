/**
 * What every command, panel and the Test Explorer is given: the extension's context and its long-lived parts. A type
 * of its own, so that the command table (commands/index.ts) and the parts it opens (panels, the Test Explorer) do
 * not import each other.
 */
import type * as vscode from 'vscode';
import type { Ctx } from './context.js';
import type { SpecState } from './state.js';
import type { Runs } from './runs.js';
import type { LanguageServer } from './client.js';
import type { DatabasePasswords } from './secrets.js';

/** What the commands ask of the Test Explorer (testing/controller.ts's `Testing`). */
interface TestExplorer {
    readonly controller: vscode.TestController;
    /** The run profiles again, after the models or the workspace trust changed. */
    refreshProfiles(): void;
    /** Finds the specs of the workspace and shows their probes. */
    discover(): Promise<void>;
    /** The model whose result a question's item shows last, for Open Graph from that item. */
    modelShown(questionId: string): string | undefined;
}

export interface Services {
    ctx: Ctx;
    state: SpecState;
    runs: Runs;
    testing?: TestExplorer;
    /** Saved database passwords (SecretStorage), also the engine's registry in this host. */
    passwords: DatabasePasswords;
    /** The language client and its server (client lifetime; restartable). */
    server?: LanguageServer;
}
