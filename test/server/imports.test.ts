import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { open, serverServices } from './support.js';

describe('imports in the language server', () => {
    it('loads an imported file the workspace has not loaded, so its names resolve', async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-imports-'));
        try {
            fs.mkdirSync(path.join(dir, 'shared'));
            fs.mkdirSync(path.join(dir, 'app'));
            fs.writeFileSync(
                path.join(dir, 'shared/countries.probe'),
                'import "more.probe"\nrelation Country from c {\n    code: text\n    key (code)\n}\n',
            );
            fs.writeFileSync(path.join(dir, 'shared/more.probe'), 'source c csv "c.csv"\n');
            const s = serverServices();
            const doc = await open(
                s,
                path.join(dir, 'app/people.probe'),
                'import "../shared/countries.probe"\nimport "nowhere.probe"\nsource p csv "p.csv"\nrelation Person from p {\n    country: text\n}\nfk Person.country -> Country.code\n',
            );
            const codes = (doc.diagnostics ?? []).map(d => d.code);
            assert.ok(!codes.includes('unresolved-name'), JSON.stringify(doc.diagnostics?.map(d => d.message)));
            assert.ok(codes.includes('missing-import'));
            assert.ok(
                s.shared.workspace.LangiumDocuments.all.some(d => d.uri.path.endsWith('shared/more.probe')),
                'imports of imports are loaded too',
            );
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
