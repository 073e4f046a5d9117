/**
 * The layering of src/ as dependency-cruiser sees it (issue 23): the family contract loads no code (everything it
 * reaches is reached by type-only imports and itself imports types only), and `.dependency-cruiser.cjs` finds
 * nothing, neither an error nor a warning.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { repoRoot } from '../../support/runner-fixtures.js';

const require = createRequire(import.meta.url);

interface Dependency {
    module: string;
    resolved: string;
    dependencyTypes: string[];
}
interface Module {
    source: string;
    dependencies: Dependency[];
}
interface Violation {
    type: string;
    from: string;
    to: string;
    rule: { name: string; severity: string };
    cycle?: { name: string }[];
}
interface Cruise {
    modules: Module[];
    summary: { violations: Violation[]; error: number; warn: number };
}

/** The contract's top: it names the core and every capability module (core/probes/contract/). */
const CONTRACT = 'src/core/probes/contract/family.ts';

describe('layering', () => {
    let cruise: Cruise;
    before(() => {
        const bin = path.join(repoRoot, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
        const r = spawnSync(process.execPath, [bin, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
            cwd: repoRoot,
            encoding: 'utf8',
            maxBuffer: 256 * 1024 * 1024,
        });
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
        const rooms = [...reached].filter(s =>
            /^src\/core\/(families\/|report\/|run\/|kg\/(?!path\.ts)|store\/(?!types\.ts)|probes\/registry\.ts)/.test(s),
        );
        assert.deepEqual(rooms, [], 'the contract reaches an engine room');
    });

    it("the extension's eagerly loaded files and the light front doors load no better-sqlite3", () => {
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
        const found = cruise.summary.violations
            .filter(v => ['faces-through-index', 'faces-import-no-family'].includes(v.rule.name))
            .map(v => `${v.rule.name}: ${v.from} → ${v.to}`);
        assert.deepEqual(found, []);
    });

    it('no import cycle in src/, type imports included', () => {
        const local = new Map(
            cruise.modules
                .filter(m => m.source.startsWith('src/'))
                .map(m => [m.source, m.dependencies.filter(d => d.resolved.startsWith('src/')).map(d => d.resolved)]),
        );
        // Tarjan's strongly connected components: a component of more than one module (or a module importing itself) is a cycle.
        const index = new Map<string, number>(),
            low = new Map<string, number>(),
            stack: string[] = [],
            onStack = new Set<string>();
        const cycles: string[][] = [];
        let next = 0;
        const visit = (v: string) => {
            index.set(v, next);
            low.set(v, next);
            next++;
            stack.push(v);
            onStack.add(v);
            for (const w of local.get(v) ?? []) {
                if (!index.has(w)) {
                    visit(w);
                    low.set(v, Math.min(low.get(v)!, low.get(w)!));
                } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
            }
            if (low.get(v) === index.get(v)) {
                const component: string[] = [];
                let w: string;
                do {
                    w = stack.pop()!;
                    onStack.delete(w);
                    component.push(w);
                } while (w !== v);
                if (component.length > 1 || (local.get(v) ?? []).includes(v)) cycles.push(component.sort());
            }
        };
        for (const v of local.keys()) if (!index.has(v)) visit(v);
        assert.deepEqual(cycles, []);
    });

    it('dependency-cruiser finds nothing: every rule is an error and none is broken', () => {
        assert.deepEqual(
            cruise.summary.violations.map(v => `${v.rule.severity} ${v.rule.name}: ${v.from} → ${v.to}`),
            [],
        );
        const config = require(path.join(repoRoot, '.dependency-cruiser.cjs')) as {
            forbidden: { name: string; severity: string }[];
        };
        assert.deepEqual(
            config.forbidden.filter(r => r.severity !== 'error').map(r => r.name),
            [],
        );
    });
});
