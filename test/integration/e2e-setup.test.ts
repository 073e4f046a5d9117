/**
 * scripts/e2e-setup.sh: one folder variable (HALLUPROBE_E2E_PREFIX), installs serialised by a lock and moved
 * into place only when complete. A stand-in installer (HALLUPROBE_E2E_INSTALLER) writes code-server's layout
 * slowly, so two setups at once overlap; a damaged folder is replaced.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot, tempDir } from '../support/runner-fixtures.js';
import { codeServerEntry } from '../e2e/support/code-server.js';

const FAKE = `#!/usr/bin/env bash
set -e
echo "$1" >> "$(dirname "$0")/calls.log"
if [ ! -f "$1/node_modules/code-server/out/node/entry.js" ]; then
  mkdir -p "$1/node_modules/code-server/out/node"
  sleep 1
  echo "// entry" > "$1/node_modules/code-server/out/node/entry.js"
  mkdir -p "$1/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin"
fi
echo "$1/node_modules/code-server/out/node/entry.js"
`;

function setup(env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
    return new Promise(resolve => {
        const child = spawn('bash', [path.join(repoRoot, 'scripts', 'e2e-setup.sh')], {
            env: { ...process.env, ...env },
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '',
            err = '';
        child.stdout.on('data', d => {
            out += d;
        });
        child.stderr.on('data', d => {
            err += d;
        });
        child.on('close', code => resolve({ code, out, err }));
    });
}

test('two setups at once both succeed, one installs, nothing half-written is left', async () => {
    const dir = tempDir('hp-e2esetup-');
    const installer = path.join(dir, 'installer.sh');
    writeFileSync(installer, FAKE);
    const prefix = path.join(dir, 'cache', 'vscode-e2e');
    const env = { HALLUPROBE_E2E_PREFIX: prefix, HALLUPROBE_E2E_INSTALLER: installer };
    const [a, b] = await Promise.all([setup(env), setup(env)]);
    const entry = path.join(prefix, 'node_modules/code-server/out/node/entry.js');
    for (const r of [a, b]) {
        assert.equal(r.code, 0, r.err);
        assert.equal(r.out.trim().split('\n').at(-1), entry);
    }
    const installs = readFileSync(path.join(dir, 'calls.log'), 'utf8')
        .trim()
        .split('\n')
        .filter(l => l.includes('.installing.'));
    assert.equal(installs.length, 1, 'one install; the other setup found it complete');
    assert.deepEqual(
        readdirSync(path.dirname(prefix)).filter(n => n.includes('.installing.') || n.includes('.damaged.')),
        [],
    );
    assert.equal(codeServerEntry({ HALLUPROBE_E2E_PREFIX: prefix }), entry, 'the tests look where the setup installed');
});

test('a damaged folder is replaced by a complete install', async () => {
    const dir = tempDir('hp-e2esetup-');
    const installer = path.join(dir, 'installer.sh');
    writeFileSync(installer, FAKE);
    const prefix = path.join(dir, 'vscode-e2e');
    mkdirSync(path.join(prefix, 'node_modules', 'code-server'), { recursive: true });
    const r = await setup({ HALLUPROBE_E2E_PREFIX: prefix, HALLUPROBE_E2E_INSTALLER: installer });
    assert.equal(r.code, 0, r.err);
    assert.ok(existsSync(path.join(prefix, 'node_modules/code-server/out/node/entry.js')));
    assert.deepEqual(
        readdirSync(dir).filter(n => n.includes('.damaged.') || n.includes('.installing.')),
        [],
    );
});
