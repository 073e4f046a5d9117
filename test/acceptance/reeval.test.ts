// ReEval's RealtimeQA items (../shared/data/reeval) through the CLI: swaps generated and validated (the share that
// passes and why the rest were dropped), the example suite run end to end with the offline simulator, and its
// `local` suite — the paper's procedure: swaps by the pivot model, both enriched copies, self- and cross-attack —
// against the local OpenAI-compatible test server.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sharedMissing, sharedPath } from '../support/shared.js';
import { cliArgs } from '../support/cli-path.js';
import { cli as cliProcess } from '../support/cli-process.js';
import { startOpenAIServer } from '../support/openai-server.js';
import { answerType, contains, sameType } from '../../src/core/families/evidence/swap.js';
import { CLOSED_INSTRUCTION, OPEN_INSTRUCTION } from '../../src/core/families/evidence/family.js';
import { plainText } from '../../src/core/families/evidence/text.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const spec = path.join(repo, 'examples', 'reeval', 'reeval.probe');
const cli = (args: string[]) =>
    spawnSync(process.execPath, cliArgs(...args), { cwd: repo, encoding: 'utf8', timeout: 300_000, maxBuffer: 256 << 20 });
const skip = sharedMissing(sharedPath('data', 'reeval', 'realtime_cat2_retrieve_by_evidence.json'));

describe('ReEval RealtimeQA evidence probes (examples/reeval)', { skip }, () => {
    let dir: string;
    before(() => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-reeval-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('validates the generated swaps and says why the rest were dropped', () => {
        const r = cli(['preview', spec, '--suite', 'reeval', '--format', 'jsonl']);
        assert.equal(r.status, 0, r.stderr);
        const m = /swap: (\d+) of (\d+) cases valid; dropped: (.*)/.exec(r.stderr);
        assert.ok(m, r.stderr);
        const [valid, tried] = [Number(m[1]), Number(m[2])];
        console.log(`  RealtimeQA swaps: ${valid} of ${tried} valid (${((100 * valid) / tried).toFixed(1)} %); dropped: ${m[3]}`);
        assert.equal(tried, 814);
        // Issue 38 item 2 holds the fine type (a replacement asked for the same noun): swaps of another noun, 7 % of
        // the items, are dropped on purpose (0.645 → 0.574); 194 of 814 answers are not in their passage at all.
        assert.ok(valid / tried > 0.55, `${valid} of ${tried}`);
        const swaps = r.stdout
            .trim()
            .split('\n')
            .map(
                l =>
                    JSON.parse(l) as {
                        phrasing: string;
                        gold: { answer: string };
                        evidence: { original: string; passage: string };
                    },
            )
            .filter(q => q.phrasing === 'swap');
        assert.equal(swaps.length, valid);
        for (const q of swaps) assert.ok(q.evidence.passage.includes(q.gold.answer), 'the new answer is in the passage');
    });

    it("runs end to end offline: seed, swap, enrich and closed book, with a stale rate near the simulator's 0.30", () => {
        const db = path.join(dir, 'r.db');
        const run = cli(['run', spec, '--db', db, '--yes']);
        assert.equal(run.status, 0, run.stderr);
        const json = JSON.parse(cli(['report', '--db', db, '--format', 'json']).stdout) as {
            groups: {
                phrasing: string;
                mode: string;
                evidence?: { swap?: { n: number; stale: { value: number; ci: [number, number] } } };
            }[];
        };
        const swap = json.groups.find(g => g.phrasing === 'swap' && g.mode === 'all')!.evidence!.swap!;
        console.log(
            `  RealtimeQA with the simulator (trusts memory 0.30): stale ${swap.stale.value} [${swap.stale.ci.join(', ')}] over ${swap.n} swaps`,
        );
        assert.ok(swap.stale.ci[0] <= 0.3 && 0.3 <= swap.stale.ci[1]);
        assert.deepEqual(new Set(json.groups.map(g => g.phrasing)), new Set(['seed', 'swap', 'enrich', 'closed']));
    });

    it("the local suite: the pivot's swaps and both enriched copies against the local server; the report's self- and cross-attack table over the answers it gave", async () => {
        const items = JSON.parse(
            readFileSync(sharedPath('data', 'reeval', 'realtime_cat2_retrieve_by_evidence.json'), 'utf8'),
        ) as { question: string; answer: string; evidence: string }[];
        const gold = new Map(items.map(i => [i.question, i.answer]));
        const flat = (t: string) => t.replace(/\s+/g, ' ').trim();
        // A seed's context is its evidence as plain text (RealtimeQA's passages carry links).
        const evidence = new Set(items.map(i => `${i.question}\u0000${flat(plainText(i.evidence))}`));
        const hash = (t: string) => {
            let h = 2166136261;
            for (const ch of t) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
            return h;
        };
        // The pivot's wrong answer: another item's answer of the gold's type (as the validation reads it).
        const wrongFor = (question: string, answer: string) => {
            const t = answerType(answer, question);
            const start = hash(question) % items.length;
            for (let k = 0; k < items.length; k++) {
                const a = items[(start + k) % items.length]!.answer;
                if (
                    a.toLowerCase() !== answer.toLowerCase() &&
                    !contains(a, answer) &&
                    !contains(answer, a) &&
                    sameType(t, answerType(a, question))
                )
                    return a;
            }
            return 'nothing';
        };
        const swapped = new Map<string, { old: string; fresh: string }>();
        const answered: {
            kind: 'seed' | 'swap' | 'enrich' | 'closed';
            question: string;
            answer: string;
            right: boolean;
            outcome?: 'followed' | 'stale';
        }[] = [];
        const unsure = 'I am not sure.';
        const server = await startOpenAIServer({
            answer: ({ question: prompt }) => {
                const wrong =
                    /^Generate a wrong answer[\s\S]*?\n\nQuestion: ([\s\S]*)\n\nAnswer: ([\s\S]*)\n\nWrong Answer:$/.exec(prompt);
                if (wrong) return wrongFor(wrong[1]!, wrong[2]!);
                const rewrite =
                    /^Rewrite the passage[^\n]*\nPassage: ([\s\S]*)\nText Span: (.*)\nNew Span: (.*)\nNew Passage:$/.exec(prompt);
                if (rewrite) {
                    const passage = rewrite[1]!.replaceAll(rewrite[2]!, rewrite[3]!);
                    if (passage !== rewrite[1]) swapped.set(passage, { old: rewrite[2]!, fresh: rewrite[3]! });
                    return passage;
                }
                const open = prompt.startsWith(OPEN_INSTRUCTION)
                    ? /\n\nContext: ([\s\S]*)\n\nQuestion: ([\s\S]*)\n\nAnswer:$/.exec(prompt)
                    : null;
                const closed = prompt.startsWith(CLOSED_INSTRUCTION) ? /\n\nQuestion: ([\s\S]*)\n\nAnswer:$/.exec(prompt) : null;
                const question = open?.[2] ?? closed?.[1];
                if (question === undefined || !gold.has(question)) return 'not a prompt of this run';
                const h = hash(question) % 6,
                    g = gold.get(question)!;
                const swap = open ? swapped.get(open[1]!) : undefined;
                const kind = closed
                    ? 'closed'
                    : swap
                      ? 'swap'
                      : evidence.has(`${question}\u0000${flat(open![1]!)}`)
                        ? 'seed'
                        : 'enrich';
                // Seeds right but one in six; a swapped case stale for two in six, else followed; enriched copies right
                // but one in six (both copies alike); closed book never.
                const answer =
                    kind === 'closed'
                        ? unsure
                        : kind === 'swap'
                          ? h === 1 || h === 2
                              ? swap!.old
                              : swap!.fresh
                          : kind === 'seed'
                            ? h === 0
                                ? unsure
                                : g
                            : h === 3
                              ? unsure
                              : g;
                answered.push({
                    kind,
                    question,
                    answer,
                    right: answer !== unsure,
                    ...(kind === 'swap' ? { outcome: answer === swap!.fresh ? ('followed' as const) : ('stale' as const) } : {}),
                });
                return answer;
            },
        });
        try {
            // The example as shipped, its endpoint pointed at the test server and its data path made absolute.
            const text = readFileSync(spec, 'utf8')
                .replace('"http://127.0.0.1:8000/v1"', `"${server.url}"`)
                .replace('"../../../shared/', `"${sharedPath()}/`);
            assert.ok(text.includes(server.url) && text.includes('swap_by pivot') && text.includes('enrich_copies both'));
            const local = path.join(dir, 'local.probe');
            writeFileSync(local, text);
            const db = path.join(dir, 'local.db');
            const run = await cliProcess(['run', local, '--suite', 'local', '--db', db, '--yes'], {});
            assert.equal(run.code, 0, run.stderr);
            const report = await cliProcess(['report', '--db', db], {});
            assert.equal(report.code, 0, report.stderr);
            // The pivot's self-attack, recomputed from the answers the server gave.
            const of = (kind: string) => answered.filter(a => a.kind === kind);
            const seeds = new Set(
                of('seed')
                    .filter(a => a.right)
                    .map(a => a.question),
            );
            assert.equal(new Set(of('seed').map(a => a.question)).size, 40, 'one seed per item of the 40');
            const swaps = of('swap').filter(a => seeds.has(a.question));
            const enriched = new Set(
                of('enrich')
                    .filter(a => seeds.has(a.question))
                    .map(a => a.question),
            );
            const enrichRight = [...enriched].filter(q =>
                of('enrich')
                    .filter(a => a.question === q)
                    .every(a => a.right),
            );
            assert.ok(
                swaps.length >= 5 && enriched.size >= 5,
                `${swaps.length} swaps, ${enriched.size} enriched over ${seeds.size} seeds`,
            );
            assert.ok(of('enrich').length > enriched.size, 'two enriched copies per seed');
            const section = report.stdout.slice(report.stdout.indexOf('self- and cross-attack'));
            const rows = section
                .split('\n')
                .filter(l => /^\| (pivot|simulator)\b/.test(l))
                .map(l =>
                    l
                        .split('|')
                        .slice(1, -1)
                        .map(c => c.trim().replace(/\\(.)/g, '$1')),
                );
            // A model is shown by its name (the simulator's with its kind: "simulator (offline simulator)").
            const row = (pivot: string, model: string) =>
                rows.find(r => r[0]!.split(' ')[0] === pivot && r[1]!.split(' ')[0] === model);
            const self = row('pivot', 'pivot');
            assert.ok(self, section.slice(0, 3000));
            const share = (n: number, of: number) => (n / of).toFixed(2);
            assert.deepEqual([self[5], self[6], self[10]], [String(seeds.size), String(swaps.length), String(enriched.size)]);
            assert.match(self[7]!, new RegExp(`^${share(swaps.filter(a => a.outcome === 'followed').length, swaps.length)} \\[`));
            assert.match(self[8]!, new RegExp(`^${share(swaps.filter(a => a.outcome === 'stale').length, swaps.length)} \\[`));
            assert.match(self[11]!, new RegExp(`^${share(enrichRight.length, enriched.size)} \\[`));
            // Cross-attack: the simulator on the pivot's cases, over the pivot's seeds; and the other way round.
            const cross = row('pivot', 'simulator');
            assert.ok(cross && row('simulator', 'pivot'), section.slice(0, 3000));
            assert.equal(cross[5], String(seeds.size));
            console.log(
                `  local suite: pivot self-attack ${self.slice(5).join(' | ')}; simulator cross-attacked ${cross.slice(5).join(' | ')}`,
            );
        } finally {
            await server.close();
        }
    });
});
