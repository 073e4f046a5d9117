/** PostgreSQL connection URLs, without loading the client (the language validator uses these). */

/**
 * Query parameters that hold a password: those libpq reads one from, and the spellings people use for them
 * (`passwd`, `pwd`, `pass`). Matched on the name's letters only, so an encoded `password%3D=` is one too.
 */
const PASSWORD_PARAMETERS = /^(password|sslpassword|passwd|pwd|pass)$/i;
const isPasswordParameter = (name: string) => PASSWORD_PARAMETERS.test(name.replace(/[^a-z]/gi, ''));
const decoded = (s: string) => {
    try {
        return decodeURIComponent(s);
    } catch {
        return s;
    }
};
/** A password inside `options` ("-c PGPASSWORD=…", "password=…"). */
const IN_OPTIONS = /\b(PGPASSWORD|password|sslpassword)\s*=\s*\S+/gi;

/**
 * Where a URL carries a password, if anywhere: in its userinfo, a `password=` / `sslpassword=` parameter (any
 * case), or PGPASSWORD / password= inside an `options` parameter. Such a URL is refused: the spec is shared, the
 * password is not.
 */
export function passwordPlace(url: string): string | undefined {
    let u: URL;
    try {
        u = new URL(url.trim());
    } catch {
        return undefined;
    }
    if (u.password !== '') return 'its user part (user:password@)';
    // An encoded colon (`user%3Apassword@`) is a password in the user part all the same.
    if (decoded(u.username).includes(':')) return 'its user part (user%3Apassword@)';
    for (const [name, value] of u.searchParams) {
        if (isPasswordParameter(name)) return `its ${name.replace(/[^a-z]/gi, '')}= parameter`;
        if (/^options$/i.test(name) && new RegExp(IN_OPTIONS.source, 'i').test(value)) return 'its options= parameter';
    }
    return undefined;
}

export function passwordInUrl(url: string): boolean {
    return passwordPlace(url) !== undefined;
}

/** The URL without any password (userinfo dropped, password parameters and options values replaced), for messages. */
export function safeUrl(url: string): string {
    let u: URL;
    try {
        u = new URL(url.trim());
    } catch {
        return url.replace(/(:\/\/[^/:@\s]*?)(?::|%3a)[^@/\s]*@/i, '$1@').replace(/([?&][^=&]*pass[^=&]*=)[^&]*/gi, '$1redacted');
    }
    u.password = '';
    const user = decoded(u.username);
    if (user.includes(':')) u.username = encodeURIComponent(user.slice(0, user.indexOf(':')));
    for (const [name, value] of [...u.searchParams]) {
        if (isPasswordParameter(name)) u.searchParams.set(name, 'redacted');
        else if (/^options$/i.test(name))
            u.searchParams.set(
                name,
                value.replace(IN_OPTIONS, (_m, key: string) => `${key}=redacted`),
            );
    }
    return u.toString();
}

/**
 * The database a URL names, as `user@host:port/database` (host lower-cased, port 5432 when none is written):
 * the key a saved password is kept under, so `postgres://Ann@DB.local/sales` and `postgres://Ann@db.local:5432/sales`
 * share one. Undefined for something that is not a postgres URL.
 */
export function databaseId(url: string): string | undefined {
    let u: URL;
    try {
        u = new URL(url.trim());
    } catch {
        return undefined;
    }
    if (!/^postgres(ql)?:$/i.test(u.protocol) || u.hostname === '') return undefined;
    const decode = (s: string) => {
        try {
            return decodeURIComponent(s);
        } catch {
            return s;
        }
    };
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
export const PASSWORD_REMEDY =
    'set PGPASSWORD (or name a variable with `password_env`), or in VS Code run "HalluProbe: Set Database Password" — never a password in the spec';

/** A PostgreSQL connection URL (a results store or a source on a server), not a file. */
export const isPostgresUrl = (s: string) => /^postgres(ql)?:\/\//i.test(s.trim());

/** A results store as people see it: a server's URL without a password, a file as given. */
export function shownStore(where: string): string {
    return isPostgresUrl(where) ? safeUrl(where) : where;
}
