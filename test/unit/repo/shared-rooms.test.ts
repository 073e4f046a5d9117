/**
 * The shared rooms know no family (issue 23): verify, report, run, kg and models import no family module and decide
 * nothing on a kind's name; the shared shapes they use (a group's figures, the simulator's rates) name no family's
 * own fields — a family adds those from its folder (module augmentation, the `figures` field, declared rates).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../support/runner-fixtures.js';
import { familyKinds } from '../../../src/core/probes/registry.js';

const SHARED = ['verify', 'report', 'run', 'kg', 'models'].map(room => path.join(repoRoot, 'src', 'core', room));

function files(dir: string): string[] {
    return readdirSync(dir).flatMap(name => {
        const p = path.join(dir, name);
        return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
    });
}

/** The body of `interface NAME { … }` in a file (up to its closing brace at the start of a line). */
function interfaceBody(file: string, name: string): string {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    const start = text.indexOf(`interface ${name} `);
    assert.ok(start >= 0, `${name} in ${file}`);
    return text.slice(start, text.indexOf('\n}', start));
}

describe('shared rooms know no family', () => {
    it('no family import and no kind name deciding behaviour in verify, report, run, kg, models', () => {
        const kinds = familyKinds().join('|');
        const decides = new RegExp(`(kind\\s*[!=]==?\\s*'(${kinds})'|'(${kinds})'\\s*[!=]==?\\s*\\w*\\.?kind|case '(${kinds})')`);
        const found: string[] = [];
        for (const file of SHARED.flatMap(files)) {
            const text = readFileSync(file, 'utf8');
            if (/from '[^']*families\//.test(text)) found.push(`${path.relative(repoRoot, file)}: imports a family`);
            text.split('\n').forEach((line, i) => {
                if (decides.test(line)) found.push(`${path.relative(repoRoot, file)}:${i + 1}: ${line.trim()}`);
            });
        }
        assert.deepEqual(found, []);
    });

    it("a group's and a verdict's shared fields name no family's own, and the reports read none of them", () => {
        const fields = /^\s*(rExt|hops|multiple|binding|statements|evidence|rules|open)\??:/m;
        assert.doesNotMatch(interfaceBody('src/core/verify/figures.ts', 'GroupMetrics'), fields);
        assert.doesNotMatch(interfaceBody('src/core/verify/types.ts', 'Verdict'), /^\s*(extracted|similarity)\??:/m);
        const reads = files(path.join(repoRoot, 'src', 'core', 'report')).filter(f =>
            /\bg\.(rExt|hops|multiple|binding)\b/.test(readFileSync(f, 'utf8')),
        );
        assert.deepEqual(
            reads.map(f => path.relative(repoRoot, f)),
            [],
        );
    });

    it("the simulator's shared rates name no family's own", () => {
        for (const [file, name] of [
            ['src/core/models/offline.ts', 'OfflineRates'],
            ['src/core/probes/contract/simulator.ts', 'SimulatorRates'],
        ] as const) {
            assert.doesNotMatch(
                interfaceBody(file, name),
                /\b(follows|invents|trustsMemory|trusts_memory|wrongPremises|wrong_premises|wrongInferences|flipsTwins)\b/,
                name,
            );
        }
    });
});
