/**
 * The verdict finder's fast path (src/core/reader/verdict.ts `plainOpening`, issue 41's throughput criterion):
 * an answer opened by a plain verdict word with nothing later that could be another verdict is decided without
 * the full reading. It must decide exactly as the full rule does — the same verdict, spans, stance, why and
 * every span read — on every answer of the natural corpus's tune/ split and on every answer the reader's unit
 * tests read (their string literals), each also decorated as models write ("**…**", "Answer: …", a trailing
 * "(7)"), and under a negated question (which turns a committed "there is no …" around).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { findVerdict } from '../../../src/core/reader/index.js';
import { parseErbenchLog } from '../../../src/core/models/erbench-log.js';

const repo = path.resolve(import.meta.dirname, '..', '..', '..');

/** The tune/ split's responses (held/ is never read here). */
function tuneAnswers(): string[] {
    const dir = path.join(repo, 'test', 'fixtures', 'reader', 'natural', 'tune');
    const out: string[] = [];
    for (const f of readdirSync(dir).filter(f => f.endsWith('.jsonl'))) {
        for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n'))
            if (line.trim()) out.push((JSON.parse(line) as { response: string }).response);
    }
    return out;
}

/** Every quoted string of the reader's and the answer verifier's unit tests: the answers they read, and more. */
function unitTestAnswers(): string[] {
    const out: string[] = [];
    for (const dir of [path.join(repo, 'test', 'unit', 'reader'), path.join(repo, 'test', 'unit', 'verify')]) {
        for (const f of readdirSync(dir).filter(f => f.endsWith('.test.ts'))) {
            const src = readFileSync(path.join(dir, f), 'utf8');
            for (const m of src.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"/g)) {
                const raw = m[1] ?? m[2] ?? '';
                if (raw.length < 2) continue;
                out.push(
                    raw
                        .replace(/\\n/g, '\n')
                        .replace(/\\(['"\\])/g, '$1')
                        .replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
                );
            }
        }
    }
    return out;
}

/** The ERBench-style logs among the fixtures (runner/, verify/): each answer with the question it answered. */
function erbenchAnswers(): { answer: string; question: string }[] {
    const out: { answer: string; question: string }[] = [];
    for (const [dir, files] of [
        ['runner', ['erbench-sample.log', 'erbench-validate-sample.log']],
        ['verify', ['gpt35-movie-sample.log', 'gpt35-validate-sample.log']],
    ] as const) {
        for (const f of files)
            for (const r of parseErbenchLog(readFileSync(path.join(repo, 'test', 'fixtures', dir, f), 'utf8')))
                out.push({ answer: r.answer, question: r.question });
    }
    return out;
}

describe('the verdict fast path decides as the full rule does', () => {
    const base = [...new Set([...tuneAnswers(), ...unitTestAnswers()])];
    const answers = [...new Set(base.flatMap(a => [a, `${a} (7)`, `**${a}**`, `Answer: ${a}`]))];
    const negated = { question: 'Is it true that there are no films directed by him in 2009?' };

    it('has answers to compare, and the fast path takes a good share of them', () => {
        assert.ok(base.length > 1000, `only ${base.length} answers found`);
        const opened = answers.filter(a => /^\W*(?:yes|no|true|false|unsure)\b/i.test(a)).length;
        assert.ok(opened > 500, `only ${opened} answers open with a plain verdict word`);
    });

    it('same finding (verdict, spans, stance, why, every span read) with and without the fast path', () => {
        const differ: string[] = [];
        for (const a of answers) {
            for (const ctx of [{}, negated]) {
                if (!isSame(findVerdict(a, ctx), findVerdict(a, ctx, false))) differ.push(JSON.stringify(a.slice(0, 100)));
            }
        }
        assert.deepEqual(differ, [], `${differ.length} of ${answers.length * 2} findings differ`);
    });

    it('the ERBench fixture logs, each answer under its own question: the same finding both ways', () => {
        const logged = erbenchAnswers();
        assert.ok(logged.length >= 30, `only ${logged.length} logged answers`);
        const differ = logged
            .filter(
                ({ answer, question }) => !isSame(findVerdict(answer, { question }), findVerdict(answer, { question }, false)),
            )
            .map(r => JSON.stringify(r.answer.slice(0, 100)));
        assert.deepEqual(differ, []);
    });

    it('invented plain openings: the same finding both ways', () => {
        const invented = [
            'Yes.',
            'No',
            'no.',
            'YES!',
            'True — the club moved in 1990.',
            'False, it opened in 1988.',
            'Unsure.',
            'No, although I cannot verify the year.',
            'Yes, probably the 1998 one.',
            'No? Actually yes.',
            'Yes. No.',
            'No. So yes.',
            'Yes, but the answer is no.',
            'No. The statement is true.',
            'no/unsure',
            'Yes / unsure',
            'No-one directed it.',
            'Yes\n\nI think so, it is the 2004 film.',
            'No — not that I know of.',
            'Not sure. Maybe.',
            "I don't know, sorry.",
            'Yes. It was released in 2001. Not in 2002.',
            'Answer: No, it was released in 2011.',
            '**Answer:** yes',
            'Final answer: no',
            'Yes, so the answer is no.',
            'Unsure, but my best guess is yes.',
            'No, in short: yes.',
            'Yes, though I cannot commit either way.',
            'No. Either way, the answer is yes.',
            'True, the answer is probably yes.',
            'Yes, it came out in 2009, so no one else directed it.',
            'No — then again, if we count the remake, then yes.',
        ];
        for (const a of invented) assert.ok(isSame(findVerdict(a), findVerdict(a, {}, false)), a);
    });
});

function isSame(a: unknown, b: unknown): boolean {
    try {
        assert.deepStrictEqual(a, b);
        return true;
    } catch {
        return false;
    }
}
