/**
 * Every shipped example and preset checks and previews clean (issue 36 item 11): `halluprobe check` and
 * `halluprobe preview` exit 0 on each spec under examples/ (the ERBench presets read ../shared, as in the repository).
 * Data the published sets are known to break is declared in the spec itself (`known violations N`), as a user would.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../src/cli/main.js';
import { repoRoot } from '../support/runner-fixtures.js';

function specs(dir: string): string[] {
    return fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap(e =>
            e.isDirectory()
                ? e.name === '.halluprobe'
                    ? []
                    : specs(path.join(dir, e.name))
                : e.name.endsWith('.probe')
                  ? [path.join(dir, e.name)]
                  : [],
        );
}

/** The CLI in this process, its printed lines kept for the failure message (console only: the test reporter owns stdout). */
async function cli(args: string[]): Promise<{ code: number; out: string }> {
    const log = console.log,
        error = console.error;
    let out = '';
    const keep = (...a: unknown[]) => {
        out += `${a.map(String).join(' ')}\n`;
    };
    console.log = keep;
    console.error = keep;
    try {
        return { code: await main(args), out };
    } finally {
        console.log = log;
        console.error = error;
    }
}

describe("the ERBench binary presets ask the authors' third phrasing", () => {
    for (const name of ['soccer', 'airport', 'music', 'book', 'movie']) {
        it(name, () =>
            assert.match(
                fs.readFileSync(path.join(repoRoot, 'examples', 'erbench', `${name}.probe`), 'utf8'),
                /phrasing is_there gold yes "Is it true that there is /,
            ),
        );
    }
});

describe('every shipped example and preset is clean', { timeout: 600_000 }, () => {
    const all = specs(path.join(repoRoot, 'examples')).sort();
    it('finds the examples', () => assert.ok(all.length >= 20, all.join(', ')));
    for (const spec of all) {
        const name = path.relative(repoRoot, spec);
        it(`check ${name}`, async () => {
            const r = await cli(['check', spec]);
            assert.equal(r.code, 0, r.out.slice(-2000));
            assert.doesNotMatch(r.out, /\berror \[/, r.out.slice(-2000));
        });
        it(`preview ${name}`, async () => {
            const r = await cli(['preview', spec, '--limit', '50', '--format', 'jsonl']);
            assert.equal(r.code, 0, r.out.slice(-2000));
        });
    }
});
