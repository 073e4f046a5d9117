/**
 * `halluprobe estimate --power` (issue 37): before a run, per family and probe, the smallest difference a paired
 * comparison detects at 80 % power with a report group's questions, and the questions a target difference needs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../support/cli.js';
import { writeVariantsSuite } from '../support/variants-suite.js';
import { questionsNeeded, smallestDetectable } from '../../src/core/verify/paired.js';
import { powerSummary, type SuitePower } from '../../src/core/run/index.js';

test('estimate --power: per family and probe, what the suite detects and what a difference needs', async () => {
    const spec = writeVariantsSuite(['zero_shot', 'cot']);
    const r = await runCli(
        'estimate',
        spec,
        '--power',
        '--suite',
        'olympics',
        '--difference',
        '0.1',
        '--discordant',
        '0.3',
        '--format',
        'json',
    );
    assert.equal(r.code, 0, r.err);
    const p = JSON.parse(r.out) as SuitePower;
    assert.deepEqual(
        p.probes.map(x => `${x.kind} · ${x.probe}`),
        ['binary · player_club', 'path · club_city_olympics'],
    );
    for (const x of p.probes) {
        // The soccer suite asks each of its 40 players once per phrasing and variant.
        assert.deepEqual([x.questions, x.rows], [{ min: 40, max: 40 }, 40]);
        assert.equal(x.detectable, smallestDetectable(40, { discordant: 0.3 }));
        assert.equal(x.needed, questionsNeeded(0.1, { discordant: 0.3 }));
    }
    assert.equal(p.probes[0]!.groups, 3 * 2, 'three phrasings × two variants');
    const text = await runCli('estimate', spec, '--power', '--suite', 'olympics');
    assert.equal(text.code, 0, text.err);
    assert.match(
        text.out,
        /binary · player_club: 6 group\(s\) of 40 questions \(40 rows\) — detects a difference of 30\.4 pp; 5\.0 pp needs 1568 questions per group/,
    );
    assert.equal((await runCli('estimate', spec, '--power', '--discordant', '2')).code, 2);
    assert.equal((await runCli('estimate', spec, '--power', '--model', 'x')).code, 2);
});

test("the run picker's one line: per family the largest difference its smallest group needs, families alike named together", () => {
    const probe = (kind: string, name: string, min: number, detectable: number | null) => ({
        kind,
        probe: name,
        groups: 2,
        questions: { min, max: 40 },
        rows: 40,
        detectable,
        needed: 1568,
    });
    const base = { alpha: 0.05, power: 0.8, discordant: 0.5, difference: 0.05 };
    const d40 = smallestDetectable(40, {}),
        d20 = smallestDetectable(20, {});
    assert.ok(d40 !== null && d20 !== null && d20 > d40);
    // path has a probe of 20 a group: its family's figure is that probe's.
    assert.equal(
        powerSummary({
            ...base,
            probes: [probe('binary', 'a', 40, d40), probe('path', 'b', 40, d40), probe('path', 'c', 20, d20)],
        }),
        `80 % power: detects ${(d40 * 100).toFixed(1)} pp (binary), ${(d20 * 100).toFixed(1)} pp (path); 5.0 pp needs 1568 questions a group`,
    );
    assert.equal(
        powerSummary({ ...base, probes: [probe('binary', 'a', 40, d40), probe('path', 'b', 40, d40)] }),
        '80 % power: detects 30.4 pp (binary, path); 5.0 pp needs 1568 questions a group',
    );
    assert.equal(
        powerSummary({ ...base, probes: [probe('binary', 'a', 3, null), probe('binary', 'b', 40, d40)] }),
        '80 % power: detects no difference (binary); 5.0 pp needs 1568 questions a group',
    );
    assert.equal(powerSummary({ ...base, probes: [] }), 'Power: no measured question in this suite');
});
