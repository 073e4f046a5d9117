// The TypeScript loader of `npm test`'s test processes (scripts/test.mjs passes `--import ./scripts/test-loader.mjs`
// instead of `--import tsx`). tsx transforms each module in a loader thread and answers every import across threads:
// with a few hundred engine modules per test process that was a second or more of CPU per process. Here
// scripts/test.mjs transforms every .ts file of the repository once per run with esbuild (no bundling, same paths
// under HALLUPROBE_TEST_JS), and these synchronous in-thread hooks hand each test process the transformed source
// under the module's own .ts URL, so import.meta.url, import.meta.dirname and fixtures resolve as under tsx. A .ts
// file not transformed beforehand (a file written since) is transformed here. Developers still run a single file
// with `node --import tsx --test FILE`.
import { existsSync, readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const compiled = process.env.HALLUPROBE_TEST_JS;
// Stack traces name the .ts line, as under tsx.
process.setSourceMapsEnabled(true);

/** The transformed source of `file` (a .ts file), from the run's transformed tree when it is there. */
function source(file) {
    const rel = path.relative(root, file);
    if (compiled && !rel.startsWith('..')) {
        const js = path.join(compiled, rel.replace(/\.ts$/, '.js'));
        if (existsSync(js)) return readFileSync(js, 'utf8');
    }
    return transformSync(readFileSync(file, 'utf8'), {
        loader: 'ts',
        format: 'esm',
        target: 'node22',
        sourcefile: file,
        sourcemap: 'inline',
    }).code;
}

registerHooks({
    resolve(specifier, context, nextResolve) {
        // The sources import each other as `./x.js` (NodeNext): that names `./x.ts` when no `./x.js` exists.
        if (
            specifier.endsWith('.js') &&
            (specifier.startsWith('.') || specifier.startsWith('/')) &&
            context.parentURL?.startsWith('file:')
        ) {
            const url = new URL(specifier, context.parentURL);
            const ts = new URL(url.href.replace(/\.js$/, '.ts'));
            if (!existsSync(url) && existsSync(ts)) return { url: ts.href, format: 'module', shortCircuit: true };
        }
        return nextResolve(specifier, context);
    },
    load(url, context, nextLoad) {
        if (url.startsWith('file:') && url.endsWith('.ts')) {
            return { format: 'module', source: source(fileURLToPath(url)), shortCircuit: true };
        }
        return nextLoad(url, context);
    },
});
