/**
 * The data room's light front door: the part of its API that loads neither better-sqlite3 (native) nor a database
 * driver, for the extension's eagerly loaded files (activation, the source-trust prompt, the password commands):
 * better-sqlite3 must load only when a store is first used (src/extension/native.ts). `index.ts` re-exports it all.
 */
export { databaseId, isPostgresUrl, passwordInUrl, safeUrl, shownStore, useSavedPasswords } from './postgres-url.js';
export { type SourceAccess, accessFrom, insideFolders, sourceDecision, sourcesToConfirm } from './source-access.js';
