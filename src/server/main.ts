// Language server entry: wiring only. Features live in src/core/language and src/server/features.
import { startLanguageServer } from 'langium/lsp';
import { NodeFileSystem } from 'langium/node';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { DataCache, loadData, readHeader } from '../core/data/index.js';
import { probeDiagnostics } from '../core/probes/index.js';
import { createProbeServerServices } from './module.js';

const connection = createConnection(ProposedFeatures.all);
// One cache for the server's life: an edit to the spec reloads no unchanged data file.
const cache = new DataCache();
const { shared } = createProbeServerServices({ connection, ...NodeFileSystem }, {
    loadData: spec => loadData(spec, cache),
    readHeader,
    moreDiagnostics: ({ spec, data }) => probeDiagnostics(spec, data),
});
startLanguageServer(shared);
