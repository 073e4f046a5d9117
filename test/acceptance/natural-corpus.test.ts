/**
 * The natural-answer corpus (test/fixtures/reader/natural/, README there; issue 41): answers written the way
 * today's assistants write (by helper sessions acting as the model), labelled by other helper sessions against the data
 * before any verdict was seen. For each family, every item's question
 * is built again by the engine from its spec (the generation `preview` uses, picked by question id) and its
 * response verified exactly as a run verifies it (`verify`: the family's own parse and score); the verdict is
 * compared with the label — the answer read (binary, multi-hop, rules, temporal: yes / no / unsure /
 * unreadable; statements: true / false / don't know / unreadable; choice: the option, none, multiple, unsure,
 * unreadable) or, for evidence and open, the verdict (correct / wrong / unsure).
 *
 * Prints the agreement per family and every disagreement (held/'s without the answer's words). Fails below the goal (0.97) or its floor (FLOORS), whichever is higher, per
 * family on `held/` (the third never looked at while changing the reader) and names the families under the goal;
 * reports `tune/` without failing. Fails when both are empty. Needs ../shared
 * (the ERBench presets' data): a missing file skips that family loudly (fails in CI).
 *
 * `HALLUPROBE_CORPUS_SPLIT=tune` reads and reports `tune/` only: `held/` is not read at all (no figures, no
 * assertions), for whoever is changing the reader and must not see the held-out third. Without it, both are read.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { tmpdir } from 'node:os';
import '../../src/core/probes/registry.js';
import { previewSpec } from '../../src/core/run/preview.js';
import { loadSpec } from '../../src/core/spec/load.js';
import { createVerifyContext, verify, type VerifyContext } from '../../src/core/verify/verify.js';
import type { Question } from '../../src/core/probes/question.js';
import type { Verdict } from '../../src/core/verify/types.js';
import { sharedMissing, SHARED } from '../support/shared.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const corpus = path.join(repo, 'test', 'fixtures', 'reader', 'natural');
/**
 * The goal per family on held/ is 0.97 (issue 41). The test fails below a family's FLOOR — what this version of the
 * reader reads on the untouched third, so a reader change that reads it worse fails — and prints each family still
 * under the goal. Raise a floor as the reader improves; lower one only when the corpus grows (new unseen items may read
 * worse than the old), and say so here. 2026-11-29, with batch b2 added (binary, choice, evidence, open): binary 54/57,
 * choice 52/57, evidence 60/66, multi-hop 44/44, open 53/64, rules 33/33, statements 50/50, temporal 43/44. Before b2,
 * open's floor was 0.85 (36/42 on the first batch's third); b2's unseen open answers brought it to 0.828.
 * Later that day, with batch b3 added (the same four families) and the reader changed on tune/ only (hedged picks,
 * a conditional's consequent, a verdict tagged after a dash, list attributes): binary 71/73, choice 74/77, evidence
 * 77/83, multi-hop 44/44, open 73/83, rules 32/33, statements 50/50, temporal 43/44. Rules had no new items: one held
 * rules answer reads differently since those tune/ changes (33/33 before). Its floor is lowered to what this reader
 * reads, still the goal; the item was not opened.
 * 2026-11-29 (session 6), with batch b4 added (choice, evidence, open; drawn with seed 17, split before any verdict was
 * read): choice 97/101 (its b4 third 23/24), evidence 93/100 (16/17), open 89/102 (16/19); the rest unchanged.
 * Then the reader changed on tune/ only (which entity a clause is about, a short answer's marked conclusion, reported
 * speech, declining as one grammar): evidence 98/100, open 92/102; the rest unchanged. Then (tune/ only again: a
 * 'which' clause, a dash before a pronoun, a report the answer rejects whole, a relation word inside a name): open
 * 95/102.
 * Session 7 (tune/ only: a clause that refers to its subject is about the question's entity, a replaced value, hedged
 * claims and an abstaining answer, report item lists, a name before a plural noun): open 96/102.
 * Session 8, with batch b5 added (choice, open, rules; seed 19, split before any verdict was read; the rules items
 * asked as the spec asks now, "In 2019, …"): choice 116/120 (its b5 third 19/19), open 107/116 (11/14), rules 47/49
 * (15/16); floors lowered to what this reader reads on the larger held third, none of whose answers was opened.
 * Then batch b6 (choice, open; seed 23, split the same way): choice 133/137 (its b6 third 17/17), open 128/138 (21/22).
 * Then (tune/ only: an answer stating the question's proposition without a verdict word, a verdict inside a qualified
 * confidence, 'it depends' with conditional cases, an option only called a suspect): rules 48/49. Then (tune/ only:
 * a report of the given facts is not the answer's own, a relation named in the passive names no agent in the active,
 * a number states a value of its own scale, a 'that' clause's own subject, declining with side facts only): open
 * 134/138. Every family is now at or above the goal on held/, and the test fails below the goal or below its floor,
 * whichever is higher: a floor no longer goes under the goal.
 */
const GOAL = 0.97;
const FLOORS: Record<string, number> = {
    binary: 71 / 73,
    choice: 133 / 137,
    evidence: 98 / 100,
    multihop: 1,
    open: 134 / 138,
    rules: 48 / 49,
    statements: 1,
    temporal: 43 / 44,
};
const floorOf = (family: string): number => {
    const f = FLOORS[family];
    if (f === undefined) throw new Error(`no floor for the corpus family ${family}: add it to FLOORS`);
    return Math.max(f, GOAL);
};

interface Item {
    item: string;
    id: string;
    spec: string;
    probe: string;
    response: string;
    label: { answer: string; verdict?: string };
}

/** What a label's `answer` is compared on: the verdict for evidence and open, the answer read for the others. */
const BY_VERDICT = new Set(['evidence', 'open']);

function lines(file: string): Item[] {
    return readFileSync(file, 'utf8')
        .split('\n')
        .filter(l => l.trim())
        .map(l => JSON.parse(l) as Item);
}

/** The family files of a split: family → items. */
function split(name: 'tune' | 'held'): Map<string, Item[]> {
    const dir = path.join(corpus, name);
    const out = new Map<string, Item[]>();
    if (!existsSync(dir)) return out;
    for (const f of readdirSync(dir)
        .filter(f => f.endsWith('.jsonl'))
        .sort())
        out.set(f.replace(/\.jsonl$/, ''), lines(path.join(dir, f)));
    return out;
}

/** The reading the label names, from a verdict of the engine. */
function ours(family: string, v: Verdict): string {
    if (BY_VERDICT.has(family)) {
        if (v.correct) return 'correct';
        return v.answer === 'unsure' ||
            v.answer === 'dont_know' ||
            v.answer === 'unparseable' ||
            v.read?.stance === 'abstain' ||
            v.read?.stance === 'refuse'
            ? 'unsure'
            : 'wrong';
    }
    if (v.answer === 'unparseable') return 'unreadable';
    if (v.answer === 'option' || v.answer === 'binding') return String(v.option);
    return v.answer;
}

function theirs(family: string, item: Item): string {
    return BY_VERDICT.has(family) ? (item.label.verdict ?? '') : item.label.answer;
}

/**
 * Specs whose questions changed on purpose after the corpus was drawn, and how to ask them as they were sent: the
 * first batch's rules prompts were drawn before a rule over dated data was asked in that time ("In 2019, …", issue
 * 36), so its questions are regenerated from the spec without the players' `as of` (the models answered those texts).
 * A later batch (items `<family>-bN-NNN`) was drawn from the spec as it is, and is asked as it is.
 */
const AS_SENT: Record<string, (text: string) => string> = {
    'examples/rules/rules.probe': text => text.replace(/(source players csv "[^"]+") as of 2019/, '$1'),
};

interface Built {
    questions: Map<string, Question>;
    ctx: VerifyContext;
}
const built = new Map<string, Promise<Built>>();

/** A spec's questions (the ids the items name), generated as preview generates them; its verify context. */
function build(spec: string, family: string, ids: Set<string>, firstBatch: boolean): Promise<Built> {
    const sent = firstBatch ? AS_SENT[spec] : undefined;
    const key = `${family} ${spec}${sent ? ' as sent' : ''}`;
    let p = built.get(key);
    if (!p) {
        p = (async () => {
            const questions = new Map<string, Question>();
            const load = sent ? (file: string) => loadSpec(file, new Map([[file, sent(readFileSync(file, 'utf8'))]])) : undefined;
            const r = await previewSpec({
                spec: path.join(repo, spec),
                db: path.join(tmpdir(), 'hp-natural-none.db'),
                ...(load ? { load } : {}),
                onQuestion: q => {
                    if (ids.has(q.id)) questions.set(q.id, q);
                },
            });
            assert.ok(!r.blocked, `${spec}: preview blocked (${r.blocked ? r.diagnostics.map(d => d.message).join('; ') : ''})`);
            return { questions, ctx: createVerifyContext(r.spec, r.data) };
        })();
        built.set(key, p);
    }
    return p;
}

/** The shared data files a spec reads (ERBench presets), if any is missing. */
function sharedFor(spec: string): false | string {
    const text = readFileSync(path.join(repo, spec), 'utf8');
    const files = [...text.matchAll(/"((?:\.\.\/)+shared\/[^"]+)"/g)].map(m =>
        path.join(SHARED, m[1]!.replace(/^(?:\.\.\/)+shared\//, '')),
    );
    return files.length ? sharedMissing(...files) : false;
}

/**
 * `ids`: every question id of the family in either split (a spec's questions are generated once per family and
 * kept for both). `quote`: whether a disagreement shows the response's words (never for held/, which nobody
 * changing the reader may read: its misses name the item and the two readings only).
 */
async function agreement(
    family: string,
    items: Item[],
    ids: Set<string>,
    quote: boolean,
): Promise<{ agree: number; n: number; misses: string[]; skipped: string[] }> {
    const misses: string[] = [];
    const skipped: string[] = [];
    let agree = 0,
        n = 0;
    for (const item of items) {
        const missing = sharedFor(item.spec);
        if (missing) {
            skipped.push(`${item.item}: ${missing}`);
            continue;
        }
        const { questions, ctx } = await build(item.spec, family, ids, !/-b\d+-\d+$/.test(item.item));
        const q = questions.get(item.id);
        assert.ok(q, `${item.item}: question ${item.id} not generated by ${item.spec} (probe ${item.probe})`);
        const v = verify(q, item.response, ctx, 'natural');
        const got = ours(family, v),
            want = theirs(family, item);
        n++;
        if (got === want) agree++;
        else
            misses.push(
                `${item.item} [${q.kind}] label ${want}, read ${got}${quote ? ` — ${v.read?.why ?? ''} | ${JSON.stringify(item.response.slice(0, 160))}` : ''}`,
            );
    }
    return { agree, n, misses, skipped };
}

/** `tune` when only tune/ may be read (HALLUPROBE_CORPUS_SPLIT=tune); otherwise both splits. */
const ONLY_TUNE = process.env['HALLUPROBE_CORPUS_SPLIT'] === 'tune';

describe('natural-answer corpus: agreement with careful labels per family', () => {
    const tune = split('tune');
    const held = ONLY_TUNE ? new Map<string, Item[]>() : split('held');

    it('has labelled items (tune/ or held/)', () => {
        assert.ok(
            tune.size + held.size > 0,
            `no corpus files in ${path.relative(repo, corpus)}/tune or held: the labelled natural answers are missing`,
        );
    });

    const idsOf = (family: string): Set<string> =>
        new Set([...(tune.get(family) ?? []), ...(held.get(family) ?? [])].map(i => i.id));
    for (const [name, files, fail] of [
        ['tune', tune, false],
        ['held', held, true],
    ] as const) {
        for (const [family, items] of files) {
            it(`${name}/${family}: agreement${fail ? ` >= ${floorOf(family).toFixed(3)} (goal ${GOAL})` : ' (reported)'}`, async () => {
                const r = await agreement(family, items, idsOf(family), !fail);
                const rate = r.n ? r.agree / r.n : 0;
                console.log(
                    `\n${name}/${family}: ${r.agree}/${r.n} = ${rate.toFixed(3)}${r.skipped.length ? ` (${r.skipped.length} skipped: shared data missing)` : ''}`,
                );
                for (const m of r.misses) console.log(`  ${m}`);
                if (fail) {
                    assert.ok(r.n > 0, `${name}/${family}: no item could be verified`);
                    if (rate < GOAL) console.log(`${name}/${family}: below the goal of ${GOAL}`);
                    assert.ok(
                        rate >= floorOf(family) - 1e-9,
                        `${name}/${family}: agreement ${rate.toFixed(3)} < ${floorOf(family).toFixed(3)}`,
                    );
                }
            });
        }
    }
});
