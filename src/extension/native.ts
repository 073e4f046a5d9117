/**
 * better-sqlite3 is a native module: a missing or mismatched prebuild must become a clear message with the
 * fix, never a crash of the extension host. Checked lazily, the first time the store is needed.
 */
import { createRequire } from 'node:module';

export type SqliteStatus = { ok: true } | { ok: false; message: string };

let status: SqliteStatus | undefined;

export function sqliteStatus(): SqliteStatus {
    if (status) return status;
    try {
        const req = createRequire(__filename);
        const Database = req('better-sqlite3') as new (file: string) => { close(): void };
        new Database(':memory:').close();
        status = { ok: true };
    } catch (err) {
        const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
        status = {
            ok: false,
            message:
                `the SQLite results store cannot load (${detail}). Install the HalluProbe build for your platform ` +
                `(${process.platform}-${process.arch}) from the Marketplace, or from a clone run \`npm ci\` so that better-sqlite3's ` +
                'prebuilt binary for this Node/Electron is present.',
        };
    }
    return status;
}
