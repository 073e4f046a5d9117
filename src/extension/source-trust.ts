/**
 * The editor's gate on data files outside the workspace folders (rule: `sourceDecision` in the engine). Before a
 * preview or a run reads a spec's data, sources the rule does not allow are put to the user in one question. A yes
 * is remembered per workspace (workspaceState); a no for this session, so a reload asks again. No `vscode`
 * import: state.ts passes the host, tests a fake.
 */
import { sourcesToConfirm, type SourceAccess } from '../core/data/light.js';
import type { SourceDecl } from '../core/spec/index.js';
import type { SourceAccessParams } from '../protocol/lsp.js';

/** The workspaceState shape (vscode.Memento) this needs. */
interface WorkspaceMemory {
    get<T>(key: string): T | undefined;
    update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

export interface SourceTrustHost {
    folders(): readonly string[];
    trusted(): boolean;
    memory: WorkspaceMemory;
    /** Asks once about these files outside the workspace; true: read them. */
    ask(files: readonly string[]): Promise<boolean>;
}

const DECISIONS = 'halluprobe.outsideSources';
const SEEN = 'halluprobe.workspaceSeen';

export class SourceTrust {
    private readonly newlyOpened: boolean;
    private readonly refusedNow: Record<string, boolean> = {};
    private readonly listeners: (() => void)[] = [];

    constructor(private readonly host: SourceTrustHost) {
        // The first session in a workspace counts as newly opened until the window reloads.
        this.newlyOpened = host.memory.get<boolean>(SEEN) !== true;
        void host.memory.update(SEEN, true);
    }

    /** Resolves when every source may be read; otherwise says which were refused (now or before). */
    async confirm(sources: readonly SourceDecl[]): Promise<{ ok: true } | { ok: false; refused: string[] }> {
        const allowed = this.host.memory.get<Record<string, boolean>>(DECISIONS) ?? {};
        const access: SourceAccess = {
            folders: this.host.folders(),
            trusted: this.host.trusted(),
            newlyOpened: this.newlyOpened,
            decisions: { ...allowed, ...this.refusedNow },
        };
        const { ask, refused } = sourcesToConfirm(sources, access);
        if (ask.length > 0) {
            if (await this.host.ask(ask)) {
                await this.allow(ask);
            } else {
                for (const file of ask) this.refusedNow[file] = false;
                refused.push(...ask);
            }
        }
        return refused.length ? { ok: false, refused } : { ok: true };
    }

    /** Records sources as allowed in this workspace (the user chose to connect to a database) and tells the listeners. */
    async allow(keys: readonly string[]): Promise<void> {
        const allowed = this.host.memory.get<Record<string, boolean>>(DECISIONS) ?? {};
        if (keys.every(k => allowed[k] === true)) return;
        for (const k of keys) delete this.refusedNow[k];
        await this.host.memory.update(DECISIONS, { ...allowed, ...Object.fromEntries(keys.map(k => [k, true])) });
        for (const l of this.listeners) l();
    }

    /** What the language server may read (it applies the same rule to its diagnostics, hovers and completions). */
    snapshot(): SourceAccessParams {
        const allowed = this.host.memory.get<Record<string, boolean>>(DECISIONS) ?? {};
        return {
            trusted: this.host.trusted(),
            newlyOpened: this.newlyOpened,
            allowed: Object.keys(allowed).filter(f => allowed[f]),
        };
    }

    /** Called when the user allowed more files. */
    onDidAllow(listener: () => void): void {
        this.listeners.push(listener);
    }
}

/** The message shown when a refused source stops a preview or a run. */
export function refusedMessage(refused: readonly string[]): string {
    return `not reading ${refused.join(', ')}: it is outside the workspace folders and was not allowed. Move the data into the workspace, or reload the window and allow it when asked.`;
}
