// Language server entry: wiring only. Features live in src/core/language and src/server/features.
import { startLanguageServer } from 'langium/lsp';
import { NodeFileSystem } from 'langium/node';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { ColumnStore, DataCache, loadData, readHeader } from '../core/data/index.js';
import { probeDiagnostics, withoutFollowOns } from '../core/probes/index.js';
import { URI } from 'langium';
import {
    DATABASE_PASSWORDS_NOTIFICATION,
    SOURCE_ACCESS_NOTIFICATION,
    type DataCacheOptions,
    type DatabasePasswordsParams,
    type SourceAccessParams,
} from '../protocol/lsp.js';
import { useClientPasswords } from './database-passwords.js';
import { createProbeServerServices } from './module.js';
import { DataFileWatcher } from './data-watch.js';
import { cachedProbeDiagnostics } from './probe-diagnostics.js';
import { SourceGate } from './source-gate.js';

const connection = createConnection(ProposedFeatures.all);
// The server must outlive any bug in a handler: log it (the editor's output channel shows stderr) and go on.
// Without this an unhandled rejection ends the process and the user loses diagnostics until a restart.
process.on('uncaughtException', e =>
    console.error(`HalluProbe language server: uncaught error (kept running): ${e.stack ?? e.message}`),
);
process.on('unhandledRejection', e =>
    console.error(
        `HalluProbe language server: unhandled rejection (kept running): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
    ),
);
// One cache for the server's life: an edit to the spec reloads no unchanged data file.
const cache = new DataCache();
// From estimates and bounded samples: the server never derives an unbounded set of a rule's facts.
const probes = cachedProbeDiagnostics((spec, data) => probeDiagnostics(spec, data, { editor: true }));
// Files outside the workspace folders are read only as the editor allows (when the editor gates them at all).
const gate = new SourceGate();
const { shared, data } = createProbeServerServices(
    { connection, ...NodeFileSystem },
    {
        loadData: (spec, options) =>
            loadData(spec, cache, undefined, gate.active ? { ...options, readable: gate.readable } : options),
        readHeader: source => (gate.readable(source.path) ? readHeader(source) : Promise.resolve([])),
        moreDiagnostics: async ({ spec, data }, reported, cancelToken) =>
            withoutFollowOns(spec, await probes(spec, data, cancelToken), reported),
    },
);
// When a data file changes on disk, forget remembered loads and re-check the specs that read it.
const watcher = new DataFileWatcher(uris => {
    data.invalidate();
    void shared.workspace.WorkspaceLock.write(token =>
        shared.workspace.DocumentBuilder.update(
            uris.map(u => URI.parse(u)),
            [],
            token,
        ),
    );
});
/** The sources each document's spec read at its last load: a change of access or password re-checks only the specs it concerns. */
const readsBy = new Map<string, string[]>();
let storeSaid = '';
data.onLoaded = (uri, files) => {
    readsBy.set(uri, files);
    watcher.watch(uri, files);
    // What the column store saved (or could not) so far, said when it changes: a reload should read no file.
    const counts = cache.store?.counts;
    const said = counts
        ? `data cache: ${counts.hits} sources read from ${cache.store!.dir}, ${counts.misses} from their files`
        : '';
    if (said !== storeSaid) connection.console.log((storeSaid = said));
};
shared.lsp.LanguageServer.onInitialize(params => {
    gate.initialize(params);
    // The columns read by the previous server process: a window reload's first check parses no unchanged file.
    const dir = (params.initializationOptions as DataCacheOptions | undefined)?.dataCacheDir;
    if (typeof dir === 'string' && dir !== '') cache.store = new ColumnStore(dir);
    useClientPasswords(
        (params.initializationOptions as { databasePasswords?: DatabasePasswordsParams } | undefined)?.databasePasswords,
    );
});
/**
 * Forgets remembered loads and checks again every spec that reads a source `concerned` picks (or that has not
 * been loaded yet): what may be read, or how, changed. Specs reading nothing it concerns are not rebuilt, so the
 * spec the user is waiting on is published without waiting for every other spec of the workspace.
 */
const recheck = (why: string, concerned: (source: string) => boolean) => {
    data.invalidate();
    const all = shared.workspace.LangiumDocuments.all.map(d => d.uri).toArray();
    const affected = all.filter(uri => readsBy.get(uri.toString())?.some(concerned) ?? true);
    connection.console.info(`${why}: checking ${affected.length} of ${all.length} specs again`);
    if (affected.length === 0) return;
    const started = performance.now();
    shared.workspace.WorkspaceLock.write(token => shared.workspace.DocumentBuilder.update(affected, [], token)).then(
        () => connection.console.log(`${why}: re-check done after ${Math.round(performance.now() - started)} ms`),
        err =>
            connection.console.error(
                `${why}: re-check failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
            ),
    );
};
const isDatabase = (source: string) => /^postgres(ql)?:\/\//i.test(source);
// The user allowed a file (or trusted the workspace): check the specs reading outside sources again.
connection.onNotification(SOURCE_ACCESS_NOTIFICATION, (params: SourceAccessParams) => {
    gate.update(params);
    recheck('what may be read changed', source => !gate.inside(source));
});
// The user saved or deleted a database password: the specs reading a database connect again with it.
connection.onNotification(DATABASE_PASSWORDS_NOTIFICATION, (params: DatabasePasswordsParams) => {
    useClientPasswords(params);
    recheck('database passwords changed', isDatabase);
});
connection.onExit(() => watcher.dispose());
startLanguageServer(shared);
