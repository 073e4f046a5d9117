// Language server entry: wiring only. Features live in src/core/language and src/server/features.
import { startLanguageServer } from 'langium/lsp';
import { NodeFileSystem } from 'langium/node';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createProbeServices } from '../core/language/module.js';

const connection = createConnection(ProposedFeatures.all);
const { shared } = createProbeServices({ connection, ...NodeFileSystem });
startLanguageServer(shared);
