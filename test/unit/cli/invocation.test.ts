/** Every command a message suggests works when pasted: `npx halluprobe …` unless halluprobe is on the user's PATH. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
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

    it('a run in a project without halluprobe on PATH suggests npx halluprobe report', async () => {
        const spec = writeVariantsSuite(['zero_shot']);
        const saved = process.env.PATH;
        const out: string[] = [];
        const log = console.log, error = console.error;
        console.log = (...a: unknown[]) => { out.push(a.join(' ')); };
        console.error = (...a: unknown[]) => { out.push(a.join(' ')); };
        process.env.PATH = '/usr/bin:/bin';
        try {
            assert.equal(await main(['run', spec, '--db', path.join(path.dirname(spec), 'r.db'), '--yes']), 0);
            assert.equal(await main(['report', '--db', path.join(path.dirname(spec), 'missing.db')]), 2);
        } finally {
            process.env.PATH = saved;
            console.log = log; console.error = error;
        }
        const text = out.join('\n');
        assert.match(text, /see them with: npx halluprobe report --db /);
        assert.match(text, /run "npx halluprobe run <spec\.probe>" first/);
        assert.doesNotMatch(text.replace(/npx halluprobe/g, ''), /[^/\w]halluprobe (run|report|runs|check|preview) /);
    });
});
