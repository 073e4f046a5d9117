/**
 * Which data files a spec may have read in the editor without asking (issue 11): a source inside the workspace
 * folders always; one outside them (`source x csv "/etc/shadow"`) only once the user allowed it in this
 * workspace, or without asking when the workspace is trusted and was opened before. A spec that came with a
 * freshly cloned or untrusted folder cannot read files elsewhere on the machine unnoticed. Plain data: the
 * extension's prompt and the tests share the rule. A database URL is outside every folder: a cloned spec
 * cannot make the editor connect to a server with the user's PGPASSWORD unnoticed either.
 */
import * as path from 'node:path';
import type { SourceDecl } from '../spec/model.js';

export type SourceDecision = 'read' | 'ask' | 'refuse';

export interface SourceAccess {
    /** The workspace folders, absolute. */
    folders: readonly string[];
    /** The workspace is trusted (VS Code's workspace trust). */
    trusted: boolean;
    /** This is the first session in this workspace. */
    newlyOpened: boolean;
    /** What the user answered before in this workspace, by absolute path. */
    decisions: Readonly<Record<string, boolean>>;
}

/** A source read over the network (`postgres://…`): never inside the folders, remembered by its URL as written. */
const isUrl = (p: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(p);

/** How a source is remembered and shown: an absolute path, or a URL unchanged. */
const sourceKey = (p: string): string => (isUrl(p) ? p : path.resolve(p));

export function insideFolders(file: string, folders: readonly string[]): boolean {
    if (isUrl(file)) return false;
    return folders.some(folder => {
        const relative = path.relative(folder, path.resolve(file));
        return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
    });
}

export function sourceDecision(file: string, access: SourceAccess): SourceDecision {
    if (insideFolders(file, access.folders)) return 'read';
    const earlier = access.decisions[sourceKey(file)];
    if (earlier !== undefined) return earlier ? 'read' : 'refuse';
    return access.trusted && !access.newlyOpened ? 'read' : 'ask';
}

/** The spec's sources by decision: those to ask about and those refused before. */
export function sourcesToConfirm(sources: readonly SourceDecl[], access: SourceAccess): { ask: string[]; refused: string[] } {
    const ask = new Set<string>(),
        refused = new Set<string>();
    for (const s of sources) {
        const d = sourceDecision(s.path, access);
        if (d === 'ask') ask.add(sourceKey(s.path));
        else if (d === 'refuse') refused.add(sourceKey(s.path));
    }
    return { ask: [...ask], refused: [...refused] };
}

/** The access a client described (trust, first session, allowed files) over the given workspace folders. */
export function accessFrom(
    given: { trusted: boolean; newlyOpened: boolean; allowed: readonly string[] },
    folders: readonly string[],
): SourceAccess {
    return {
        folders,
        trusted: given.trusted,
        newlyOpened: given.newlyOpened,
        decisions: Object.fromEntries(given.allowed.map(f => [sourceKey(f), true])),
    };
}
