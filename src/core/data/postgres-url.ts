/** PostgreSQL connection URLs, without loading the client (the language validator uses these). */

/** A URL carrying a password is refused: the spec is shared, the password is not. */
export function passwordInUrl(url: string): boolean {
    try { return new URL(url).password !== ''; } catch { return false; }
}

/** The URL without a password, for messages. */
export function safeUrl(url: string): string {
    try { const u = new URL(url); u.password = ''; return u.toString(); } catch { return url; }
}

/**
 * The database a URL names, as `user@host:port/database` (host lower-cased, port 5432 when none is written):
 * the key a saved password is kept under, so `postgres://Ann@DB.local/sales` and `postgres://Ann@db.local:5432/sales`
 * share one. Undefined for something that is not a postgres URL.
 */
export function databaseId(url: string): string | undefined {
    let u: URL;
    try { u = new URL(url.trim()); } catch { return undefined; }
    if (!/^postgres(ql)?:$/i.test(u.protocol) || u.hostname === '') return undefined;
    const decode = (s: string) => { try { return decodeURIComponent(s); } catch { return s; } };
    return `${decode(u.username)}@${u.hostname.toLowerCase()}:${u.port || '5432'}/${decode(u.pathname.replace(/^\//, ''))}`;
}

/** Where the faces keep saved database passwords (the editor's SecretStorage); the engine only asks. */
export type SavedPasswords = (databaseId: string) => string | undefined;

let savedPasswords: SavedPasswords = () => undefined;

/**
 * The editor fills this with the passwords the user saved ("HalluProbe: Set Database Password"); the CLI never
 * does, so there only the environment counts. The engine reads a password only when connecting.
 */
export function useSavedPasswords(lookup: SavedPasswords): void {
    savedPasswords = lookup;
}

/** The saved password for the database a URL names, if the editor has one. */
export function savedPassword(url: string): string | undefined {
    const id = databaseId(url);
    return id === undefined ? undefined : savedPasswords(id);
}

/** How to give a password, for every message that needs one. */
export const PASSWORD_REMEDY = 'set PGPASSWORD (or name a variable with `password_env`), or in VS Code run "HalluProbe: Set Database Password" — never a password in the spec';
