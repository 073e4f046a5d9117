/** An unreachable endpoint's error is printed once, with how many questions it failed, not once per question. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { repoRoot } from '../../support/runner-fixtures.js';
import { tempDir } from '../../support/temp.js';
import { cliArgs } from '../../support/cli-path.js';

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
    const srv = net.createServer();
    await new Promise<void>(r => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as net.AddressInfo).port;
    await new Promise(r => srv.close(r));
    return port;
}

test('a run against an unreachable endpoint prints its connection error once', { timeout: 120_000 }, async () => {
    const dir = tempDir('hp-unreachable-');
    cpSync(path.join(repoRoot, 'examples', 'movie'), dir, { recursive: true });
    const spec = path.join(dir, 'movie.probe');
    writeFileSync(
        spec,
        `${readFileSync(spec, 'utf8')}\nmodel dead ollama {\n    id "x"\n    endpoint "http://127.0.0.1:${await closedPort()}/v1"\n}\n`,
    );
    const r = spawnSync(process.execPath, cliArgs('run', spec, '--model', 'dead', '--yes'), { encoding: 'utf8', cwd: repoRoot });
    assert.equal(r.status, 1, r.stderr);
    const said = (r.stderr.match(/cannot reach/g) ?? []).length;
    assert.equal(said, 1, r.stderr);
    assert.match(r.stderr, /dead: connection: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1/);
    assert.match(r.stderr, /failed: \d+ questions \(.*dead.*\): the error above/);
});
