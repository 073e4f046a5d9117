/**
 * Custom LSP names shared by the language server (src/server) and the extension (src/extension).
 * Types and constants only. Keep this file small and additive: both sides read it.
 */

/**
 * Command executed on the SERVER (client → server `workspace/executeCommand`, offered by the "open the
 * conflicting row" quick fixes of an FD violation). Arguments: [fileUri: string, line: number (1-based)].
 * The server answers by asking the client to show the file at that line (server → client `window/showDocument`).
 */
export const OPEN_DATA_ROW_COMMAND = 'halluprobe.server.openDataRow';
export type OpenDataRowArguments = [fileUri: string, line: number];

/**
 * What the editor lets the server read outside the workspace folders (issue 11): sent as
 * `initializationOptions.sourceAccess` and then client → server as this notification whenever it changes. A
 * client that sends neither is not gated. `allowed`: absolute paths the user allowed in this workspace.
 */
export const SOURCE_ACCESS_NOTIFICATION = 'halluprobe/sourceAccess';
export interface SourceAccessParams {
    trusted: boolean;
    newlyOpened: boolean;
    allowed: string[];
}

/**
 * The database passwords the user saved in the editor (SecretStorage), by database id (`user@host:port/database`,
 * see `databaseId`): sent as `initializationOptions.databasePasswords` and then client → server as this
 * notification whenever one is set or deleted. The server connects with them and never logs them.
 */
export const DATABASE_PASSWORDS_NOTIFICATION = 'halluprobe/databasePasswords';
export interface DatabasePasswordsParams {
    passwords: Record<string, string>;
}

/**
 * The folder where the server keeps the columns it read from data files between its processes (issue 39; see
 * src/core/data/column-store.ts): sent as `initializationOptions.dataCacheDir` (the extension: a folder of its
 * workspace storage). A client that sends none gets a server that reads every file at start.
 */
export interface DataCacheOptions {
    dataCacheDir?: string;
}
