/** PostgreSQL connection URLs, without loading the client (the language validator uses these). */

/** A URL carrying a password is refused: the spec is shared, the password is not. */
export function passwordInUrl(url: string): boolean {
    try { return new URL(url).password !== ''; } catch { return false; }
}

/** The URL without a password, for messages. */
export function safeUrl(url: string): string {
    try { const u = new URL(url); u.password = ''; return u.toString(); } catch { return url; }
}
