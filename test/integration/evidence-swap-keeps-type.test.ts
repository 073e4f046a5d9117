// The default swap of free text keeps the answer's type (a year for a year, an athlete for an athlete; the papers'
// own procedure) and the replaced value's form, through the CLI's preview.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliArgs } from '../support/cli-path.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const cli = (args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd: repo, encoding: 'utf8', timeout: 240_000 });

interface Asked {
    phrasing: string;
    gold: { answer: string };
    evidence?: { original: string; passage: string; type?: string };
}

describe('the default swap of free text keeps the type', () => {
    let dir: string;
    before(() => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-swap-type-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    function preview(name: string, items: object[], settings = ''): Asked[] {
        writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(items));
        const spec = path.join(dir, `${name}.probe`);
        writeFileSync(
            spec,
            `source items json "${name}.json"
relation Item from items { id: int  question: text  answer: text  evidence: text  key (id) }
probe p evidence about Item {
    question "{question}"
    answer answer
    passage "{evidence}"
    ${settings}
}
`,
        );
        const r = cli(['preview', spec, '--format', 'jsonl']);
        assert.equal(r.status, 0, r.stderr);
        return r.stdout
            .trim()
            .split('\n')
            .filter(Boolean)
            .map(l => JSON.parse(l) as Asked);
    }
    const item = (id: number, question: string, answer: string, evidence: string) => ({ id, question, answer, evidence });
    const swaps = (qs: Asked[]) => qs.filter(q => q.phrasing === 'swap');

    it('with no swap_with, a free-text column swaps a year for a year, never for a person', () => {
        const years = ['1990', '1985', '1979', '2003'];
        const people = ['Angela Merkel', 'Olaf Scholz', 'Helmut Kohl', 'Gerhard Schroeder'];
        const qs = preview('default', [
            ...years.map((y, i) =>
                item(
                    i + 1,
                    `In which year was treaty ${i + 1} signed?`,
                    y,
                    `The treaty ${i + 1} was signed in ${y} at the castle.`,
                ),
            ),
            ...people.map((p, i) =>
                item(i + 11, `Who signed accord ${i + 1}?`, p, `Accord ${i + 1} was signed by ${p} at the castle.`),
            ),
        ]);
        assert.ok(swaps(qs).length >= 6, `swaps: ${swaps(qs).length}`);
        for (const q of swaps(qs))
            assert.equal(
                years.includes(q.gold.answer),
                years.includes(q.evidence!.original),
                `${q.evidence!.original} → ${q.gold.answer}`,
            );
    });

    it('holds the fine type: an athlete for an athlete (not a politician), goals for goals (not people)', () => {
        const qs = preview(
            'fine',
            [
                item(1, 'Which athlete won the marathon?', 'Eliud Kipchoge', 'Eliud Kipchoge won the marathon in Berlin.'),
                item(2, 'Which athlete won the sprint?', 'Usain Bolt', 'Usain Bolt won the sprint in Rome.'),
                item(3, 'Which politician won the vote?', 'Angela Merkel', 'Angela Merkel won the vote in Bonn.'),
                item(4, 'Which politician lost the vote?', 'Olaf Scholz', 'Olaf Scholz lost the vote in Bonn.'),
                item(5, 'Which politician called the vote?', 'Helmut Kohl', 'Helmut Kohl called the vote in Bonn.'),
                item(6, 'How many goals did Messi score?', '3 goals', 'Messi scored 3 goals on Sunday.'),
                item(7, 'How many goals did Kane score?', '2 goals', 'Kane scored 2 goals on Sunday.'),
                item(8, 'How many people were arrested?', '300 people', 'Police said 300 people were arrested.'),
                item(9, 'How many people were injured?', '40 people', 'Police said 40 people were injured.'),
                item(10, 'How many people were evacuated?', '900 people', 'Police said 900 people were evacuated.'),
            ],
            'swap_with same_type',
        );
        const athletes = ['Eliud Kipchoge', 'Usain Bolt'];
        const goals = ['3 goals', '2 goals'];
        assert.ok(swaps(qs).length >= 6, `swaps: ${swaps(qs).length}`);
        for (const q of swaps(qs)) {
            assert.equal(
                athletes.includes(q.gold.answer),
                athletes.includes(q.evidence!.original),
                `${q.evidence!.original} → ${q.gold.answer}`,
            );
            assert.equal(
                goals.includes(q.gold.answer),
                goals.includes(q.evidence!.original),
                `${q.evidence!.original} → ${q.gold.answer}`,
            );
        }
    });

    it('a replacement takes the form of the value it replaces: a bare year in a table cell, not "In 1933"', () => {
        const qs = preview(
            'form',
            [
                item(1, 'When was the bridge opened?', 'In 1933', 'The bridge was opened in 1933.'),
                item(2, 'When was the tower opened?', 'In 1889', 'The tower was opened in 1889.'),
                item(3, 'When was the dam opened?', 'In 1936', 'The dam was opened in 1936.'),
                item(4, 'When was the tunnel opened?', '1994', 'The tunnel | opened | 1994'),
            ],
            'swap_with same_type',
        );
        const tunnel = swaps(qs).find(q => q.evidence!.original === '1994');
        assert.ok(tunnel, 'the tunnel has a swap');
        assert.match(tunnel.gold.answer, /^\d{4}$/);
        assert.match(tunnel.evidence!.passage, /^The tunnel \| opened \| \d{4}$/);
    });
});
