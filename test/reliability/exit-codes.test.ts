// Issue 29, item 7: ordinary conditions are exit 1 with a remedy, never exit 70 (kept for bugs): a read-only store,
// a full disk, a store with a damaged page (refused on open by PRAGMA quick_check), an unwritable configuration
// folder and a corrupt key-bindings.json (not silently overwritten), `sslcert=` naming a missing file.
// The full disk and the read-only store are real: a 2 MB tmpfs, remounted read-only (needs root to mount; the
// test says so and skips otherwise).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { startOpenAIServer, type TestServer } from '../support/openai-server.js';
import { writeSpec, tempDir } from '../support/runner-fixtures.js';
import { cli } from '../support/cli-process.js';

const mount = (dir: string, options: string) =>
    spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { encoding: 'utf8' }).status === 0;
const noStack = (text: string) => !/internal error/.test(text);

describe('ordinary failures exit 1 with a remedy', { timeout: 180_000 }, () => {
    let server: TestServer;
    before(async () => {
        server = await startOpenAIServer({ answer: () => `Yes. ${'padding '.repeat(200)}` });
    });
    after(async () => {
        await server.close();
    });

    it('a store on a full disk, then read-only', async t => {
        const dir = tempDir('hp-tmpfs-');
        if (!mount(dir, 'size=2m')) return t.skip('cannot mount a tmpfs here (needs root): the full-disk case is not exercised');
        try {
            const spec = writeSpec(server.url);
            // Many long answers into a 2 MB file system: the store fills it mid-run.
            fs.writeFileSync(spec, fs.readFileSync(spec, 'utf8').replace(/sample \w+.*/, 'sample all'));
            const db = path.join(dir, 'r.db');
            const full = await cli(['run', spec, '--db', db, '--yes'], { OPENAI_API_KEY: 'sk-x' });
            const text = full.stdout + full.stderr;
            assert.equal(full.code, 1, text);
            assert.ok(noStack(text), text);
            assert.match(text, /disk is full|disk holding .* is full/, text);
            assert.equal(spawnSync('mount', ['-o', 'remount,ro', dir]).status, 0);
            const ro = await cli(['run', spec, '--db', db, '--yes'], { OPENAI_API_KEY: 'sk-x' });
            assert.equal(ro.code, 1, ro.stdout + ro.stderr);
            assert.match(ro.stdout + ro.stderr, /cannot be written|read-only/);
            assert.ok(noStack(ro.stdout + ro.stderr));
        } finally {
            spawnSync('umount', [dir]);
        }
    });

    it('a store with a damaged page is refused when opened', async () => {
        const spec = writeSpec(server.url);
        const db = path.join(path.dirname(spec), 'r.db');
        const first = await cli(['run', spec, '--db', db, '--yes'], { OPENAI_API_KEY: 'sk-x' });
        assert.equal(first.code, 0, first.stdout + first.stderr);
        await cli(['runs', '--db', db], {}); // checkpoints the WAL into the file
        const bytes = fs.readFileSync(db);
        const pageSize = bytes.readUInt16BE(16) || 65536;
        assert.ok(bytes.length >= 6 * pageSize, `${bytes.length} bytes`);
        // A page in the middle overwritten with garbage (a b-tree page: its header byte becomes invalid).
        const page = Math.floor(bytes.length / pageSize / 2);
        bytes.fill(0xa5, page * pageSize, (page + 1) * pageSize);
        fs.writeFileSync(db, bytes);
        for (const args of [
            ['report', '--db', db],
            ['run', spec, '--db', db, '--yes'],
        ]) {
            const r = await cli(args, { OPENAI_API_KEY: 'sk-x' });
            assert.equal(r.code, 1, `${args[0]}: ${r.stdout}${r.stderr}`);
            assert.match(r.stdout + r.stderr, /is damaged|damaged or unreadable/, args[0]);
            assert.ok(noStack(r.stdout + r.stderr));
        }
    });

    it('an unwritable configuration folder and a corrupt key-bindings.json', async () => {
        const spec = writeSpec(server.url);
        fs.writeFileSync(spec, fs.readFileSync(spec, 'utf8').replace('endpoint "', 'key_env "HP_CUSTOM_KEY"\n    endpoint "'));
        const db = path.join(path.dirname(spec), 'r.db');
        // A folder that cannot be created: its parent is a regular file (works as root too, unlike chmod).
        const blocker = path.join(path.dirname(spec), 'not-a-folder');
        fs.writeFileSync(blocker, '');
        const unwritable = await cli(['run', spec, '--db', db, '--yes'], {
            HP_CUSTOM_KEY: 'sk-custom',
            HALLUPROBE_CONFIG_DIR: path.join(blocker, 'halluprobe'),
        });
        assert.equal(unwritable.code, 1, unwritable.stdout + unwritable.stderr);
        assert.match(unwritable.stdout + unwritable.stderr, /cannot be written.*HALLUPROBE_CONFIG_DIR/s);
        const config = path.join(path.dirname(spec), 'config');
        fs.mkdirSync(config);
        fs.writeFileSync(path.join(config, 'key-bindings.json'), '{"$OTHER": "https://x.example", oops');
        const corrupt = await cli(['run', spec, '--db', db, '--yes'], {
            HP_CUSTOM_KEY: 'sk-custom',
            HALLUPROBE_CONFIG_DIR: config,
        });
        assert.equal(corrupt.code, 1, corrupt.stdout + corrupt.stderr);
        assert.match(corrupt.stdout + corrupt.stderr, /key-bindings\.json is not valid JSON/);
        assert.equal(
            fs.readFileSync(path.join(config, 'key-bindings.json'), 'utf8'),
            '{"$OTHER": "https://x.example", oops',
            'not overwritten',
        );
    });

    it('sslcert= naming a missing file', async () => {
        const dir = tempDir('hp-sslcert-');
        const spec = path.join(dir, 'pg.probe');
        fs.writeFileSync(
            spec,
            'source films postgres "postgres://me@127.0.0.1:1/world?sslcert=/nonexistent/client.crt" table "film"\n\nrelation Film from films {\n    title: text\n    key (title)\n}\n',
        );
        const r = await cli(['check', spec], {});
        assert.equal(r.code, 1, r.stdout + r.stderr);
        assert.match(r.stdout + r.stderr, /pg\.probe:1:\d+ error .*sslcert=\/nonexistent\/client\.crt, which does not exist/);
        assert.ok(noStack(r.stdout + r.stderr));
    });
});
