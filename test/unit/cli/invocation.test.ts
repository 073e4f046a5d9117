/** Every command a message suggests works when pasted: `npx halluprobe …` unless halluprobe is on the user's PATH. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cliCommand } from '../../../src/core/invocation.js';
import { main } from '../../../src/cli/main.js';
import { tempDir } from '../../support/temp.js';
import { writeVariantsSuite } from '../../support/variants-suite.js';

function fakeBin(dir: string): string {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'halluprobe');
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o755);
    return dir;
}

describe('the command name in suggestions', () => {
    it('is halluprobe when it is on the PATH, npx halluprobe when only npm put it there', () => {
        const root = tempDir('hp-path-');
        const global = fakeBin(path.join(root, 'global', 'bin'));
        const local = fakeBin(path.join(root, 'project', 'node_modules', '.bin'));
        assert.equal(cliCommand({ PATH: ['/usr/bin', global].join(path.delimiter) }), 'halluprobe');
        assert.equal(cliCommand({ PATH: [local, '/usr/bin'].join(path.delimiter) }), 'npx halluprobe');
        assert.equal(cliCommand({ PATH: '/usr/bin' }), 'npx halluprobe');
        assert.equal(cliCommand({ PATH: '/usr/bin', HALLUPROBE_COMMAND: 'pnpm exec halluprobe' }), 'pnpm exec halluprobe');
    });

    it("outside the project holding the CLI, names that project's own command (npx there would ask the registry)", () => {
        const root = tempDir('hp-where-');
        // A project that depends on halluprobe: node_modules/.bin/halluprobe -> ../halluprobe/bin/halluprobe.js.
        const project = path.join(root, 'project');
        const pkgBin = path.join(project, 'node_modules', 'halluprobe', 'bin');
        mkdirSync(pkgBin, { recursive: true });
        writeFileSync(path.join(pkgBin, 'halluprobe.js'), '');
        mkdirSync(path.join(project, 'node_modules', '.bin'));
        symlinkSync(
            path.join('..', 'halluprobe', 'bin', 'halluprobe.js'),
            path.join(project, 'node_modules', '.bin', 'halluprobe'),
        );
        chmodSync(path.join(pkgBin, 'halluprobe.js'), 0o755);
        const script = path.join(project, 'node_modules', '.bin', 'halluprobe');
        // A PATH with neither halluprobe nor node on it.
        const env = { PATH: tempDir('hp-empty-path-') };
        mkdirSync(path.join(project, 'specs'));
        assert.equal(cliCommand(env, { script, cwd: path.join(project, 'specs') }), 'npx halluprobe');
        const elsewhere = tempDir('hp-elsewhere-');
        assert.equal(
            cliCommand(env, { script, cwd: elsewhere }),
            path.join(realpathSync(project), 'node_modules', '.bin', 'halluprobe'),
        );
        // A checkout started by its path (node /repo/bin/halluprobe.js) from another folder.
        const checkout = path.join(root, 'checkout');
        mkdirSync(path.join(checkout, 'bin'), { recursive: true });
        writeFileSync(path.join(checkout, 'package.json'), '{}');
        writeFileSync(path.join(checkout, 'bin', 'halluprobe.js'), '');
        const entry = path.join(checkout, 'bin', 'halluprobe.js');
        assert.equal(cliCommand(env, { script: entry, cwd: checkout }), 'npx halluprobe');
        // No `node` of the user's that is this one: this Node's path.
        assert.equal(
            cliCommand(env, { script: entry, cwd: elsewhere }),
            `${process.execPath} ${path.join(realpathSync(checkout), 'bin', 'halluprobe.js')}`,
        );
        assert.equal(
            cliCommand({ PATH: path.dirname(process.execPath) }, { script: entry, cwd: elsewhere }),
            `node ${path.join(realpathSync(checkout), 'bin', 'halluprobe.js')}`,
        );
    });

    it('a run in a project without halluprobe on PATH suggests npx halluprobe report', async () => {
        const spec = writeVariantsSuite(['zero_shot']);
        const saved = process.env.PATH;
        const out: string[] = [];
        const log = console.log,
            error = console.error;
        console.log = (...a: unknown[]) => {
            out.push(a.join(' '));
        };
        console.error = (...a: unknown[]) => {
            out.push(a.join(' '));
        };
        process.env.PATH = '/usr/bin:/bin';
        try {
            assert.equal(await main(['run', spec, '--db', path.join(path.dirname(spec), 'r.db'), '--yes']), 0);
            assert.equal(await main(['report', '--db', path.join(path.dirname(spec), 'missing.db')]), 2);
        } finally {
            process.env.PATH = saved;
            console.log = log;
            console.error = error;
        }
        const text = out.join('\n');
        assert.match(text, /see them with: npx halluprobe report --db /);
        assert.match(text, /run "npx halluprobe run <spec\.probe>" first/);
        assert.doesNotMatch(text.replace(/npx halluprobe/g, ''), /[^/\w]halluprobe (run|report|runs|check|preview) /);
    });
});
