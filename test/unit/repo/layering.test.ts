/**
 * The layering of src/ as dependency-cruiser sees it (issue 23): the family contract loads no code (everything it
 * reaches is reached by type-only imports and itself imports types only), and `.dependency-cruiser.cjs` finds
 * nothing, neither an error nor a warning.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from '../../support/runner-fixtures.js';

interface Dependency { module: string; resolved: string; dependencyTypes: string[] }
interface Module { source: string; dependencies: Dependency[] }
interface Violation { type: string; from: string; to: string; rule: { name: string; severity: string }; cycle?: { name: string }[] }
interface Cruise { modules: Module[]; summary: { violations: Violation[]; error: number; warn: number } }

const CONTRACT = 'src/core/probes/family.ts';

describe('layering', () => {
    let cruise: Cruise;
    before(() => {
        const bin = path.join(repoRoot, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
        const r = spawnSync(process.execPath, [bin, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
        assert.ok(r.stdout, r.stderr);
        cruise = JSON.parse(r.stdout) as Cruise;
    });

    it('the family contract is a leaf: it and everything it reaches import types only', () => {
        const bySource = new Map(cruise.modules.map(m => [m.source, m]));
        assert.ok(bySource.has(CONTRACT));
        const reached = new Set<string>([CONTRACT]);
        const runtime: string[] = [];
        for (const source of reached) {
            for (const d of bySource.get(source)?.dependencies ?? []) {
                if (!d.dependencyTypes.includes('type-only')) runtime.push(`${source} → ${d.resolved}`);
                if (d.dependencyTypes.includes('local')) reached.add(d.resolved);
            }
        }
        assert.deepEqual(runtime, [], 'a module the contract reaches loads code');
        const rooms = [...reached].filter(s => /^src\/core\/(families\/|report\/|run\/|kg\/(?!path\.ts)|store\/(?!types\.ts)|probes\/families\.ts)/.test(s));
        assert.deepEqual(rooms, [], 'the contract reaches an engine room');
    });

    it('the extension\'s eagerly loaded files and the light front doors load no better-sqlite3', () => {
        const bySource = new Map(cruise.modules.map(m => [m.source, m]));
        /** Modules loaded with `from` at its own load: static imports, not type-only, not import(). */
        const eager = (from: string) => {
            const reached = new Set<string>([from]);
            for (const source of reached) {
                for (const d of bySource.get(source)?.dependencies ?? []) {
                    if (d.dependencyTypes.includes('type-only') || d.dependencyTypes.includes('dynamic-import')) continue;
                    reached.add(d.resolved);
                }
            }
            return reached;
        };
        const lights = cruise.modules.map(m => m.source).filter(s => /^src\/core\/[^/]+\/light\.ts$/.test(s));
        assert.ok(lights.length >= 3, lights.join(', '));
        for (const from of ['src/extension/main.ts', ...lights]) {
            const native = [...eager(from)].filter(s => /(^|\/)better-sqlite3(\/|$)/.test(s));
            assert.deepEqual(native, [], `${from} loads better-sqlite3`);
        }
    });

    it('faces reach a core room only through its front door, and never a family', () => {
        const found = cruise.summary.violations.filter(v => ['faces-through-index', 'faces-import-no-family'].includes(v.rule.name)).map(v => `${v.rule.name}: ${v.from} → ${v.to}`);
        assert.deepEqual(found, []);
    });
});
