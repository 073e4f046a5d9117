// Language server entry: wiring only. Features live in src/core/language and src/server/features.
import { startLanguageServer } from 'langium/lsp';
import { NodeFileSystem } from 'langium/node';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { DataCache, loadData, readHeader } from '../core/data/index.js';
import { probeDiagnostics } from '../core/probes/index.js';
import { createProbeServerServices } from './module.js';
import { cachedProbeDiagnostics } from './probe-diagnostics.js';

const connection = createConnection(ProposedFeatures.all);
// One cache for the server's life: an edit to the spec reloads no unchanged data file.
const cache = new DataCache();
const probes = cachedProbeDiagnostics(probeDiagnostics);
const { shared } = createProbeServerServices({ connection, ...NodeFileSystem }, {
    loadData: (spec, options) => loadData(spec, cache, undefined, options),
    readHeader,
    moreDiagnostics: ({ spec, data }) => probes(spec, data),
});
startLanguageServer(shared);
