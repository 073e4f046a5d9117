/**
 * The reader's text helpers read by hand for speed (src/core/reader/text.ts: skipLead's first-letter test, `after`'s
 * character set, firstSentenceEnd's abbreviation keys) must read exactly as the expressions they stand for. The
 * references below are those expressions as they were written before (commit f9aa987); the inputs are the tune/
 * answers (held/ is never read here), each after every decoration and punctuation character the sets name, and
 * every BMP character before and after a word and a full stop.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { firstSentenceEnd, skipLead } from '../../../src/core/reader/index.js';
import { after } from '../../../src/core/reader/text.js';

const LEAD =
    /^(?:[\s"'`*_#>~\-•\u201c\u201d\u2018\u2019\\\u2705\u274c\u2714\u2716\u2713\u2717\u2611\u26a0\ufe0f]+|(?:a|answer|final answer|my answer|response|yes\s*\/\s*no|yes or no|true or false|true\s*\/\s*false)\s*[:\-]\s*)/i;
const AFTER = /^[\s.,!:;)\]*_"'`\u201d\u2019\u2013\u2014-]*/;
const ABBREVIATIONS = new Set([
    'no',
    'nr',
    'mr',
    'mrs',
    'ms',
    'dr',
    'st',
    'jr',
    'sr',
    'vs',
    'eg',
    'ie',
    'etc',
    'approx',
    'ca',
    'vol',
    'pp',
    'fc',
    'cf',
    'ac',
    'inc',
    'ltd',
    'co',
    'mt',
    'ft',
]);
const EXCLAMATIONS = new Set([
    'yes',
    'no',
    'sure',
    'certainly',
    'absolutely',
    'indeed',
    'correct',
    'true',
    'false',
    'great',
    'hello',
    'hi',
    'oh',
    'wow',
    'course',
    'nope',
    'yeah',
    'yep',
    'definitely',
    'right',
    'incorrect',
    'wrong',
    'question',
]);

function refSkipLead(text: string, max = 200): number {
    let i = 0;
    for (let guard = 0; guard < 20 && i < Math.min(text.length, max); guard++) {
        const m = LEAD.exec(text.slice(i, i + 80));
        if (!m || m[0].length === 0) break;
        i += m[0].length;
    }
    return i;
}

function refAfter(text: string, at: number): number {
    const m = AFTER.exec(text.slice(at, at + 40));
    return at + (m ? m[0].length : 0);
}

function refSentenceEnd(text: string, from = 0): number {
    const re = /[.!?](?=\s|$)|\n/g;
    re.lastIndex = from;
    for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[0] === '.') {
            const word = /([A-Za-z.]+)$/.exec(text.slice(Math.max(from, m.index - 8), m.index))?.[1];
            const w = word?.replace(/\./g, '').toLowerCase();
            if (w && (ABBREVIATIONS.has(w) || (word!.length === 1 && /[A-Z]/.test(word!)))) continue;
            if (word && /[A-Z]\.[A-Z]/.test(word) && /^ [a-z]/.test(text.slice(m.index + 1, m.index + 3))) continue;
        } else if (m[0] === '!' && /^ [a-z]/.test(text.slice(m.index + 1, m.index + 3))) {
            const word = /([A-Za-z]+)$/.exec(text.slice(Math.max(from, m.index - 20), m.index))?.[1];
            if (word && /^[A-Z]/.test(word) && !EXCLAMATIONS.has(word.toLowerCase())) continue;
        }
        return m.index + 1;
    }
    return text.length;
}

function tuneAnswers(): string[] {
    const dir = path.join(import.meta.dirname, '..', '..', 'fixtures', 'reader', 'natural', 'tune');
    const out: string[] = [];
    for (const f of readdirSync(dir).filter(f => f.endsWith('.jsonl'))) {
        for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n'))
            if (line.trim()) out.push((JSON.parse(line) as { response: string }).response);
    }
    return out;
}

describe('the hand-read text helpers read as their expressions', () => {
    const answers = tuneAnswers();
    const every: string[] = [];
    for (let c = 0; c < 0x10000; c++) every.push(String.fromCharCode(c));
    const words = [
        'Yes',
        'no',
        'Answer',
        'answer:',
        'a:',
        'Final answer -',
        'True / False:',
        'yes or no:',
        'Mr',
        'e.g',
        'S.W.A.T',
        'L',
        'Airplane!',
        'approx',
        'APPROX',
        'Ltd',
        'x',
    ];

    it('skipLead: the tune answers, behind every character, and behind every label', () => {
        const differ: string[] = [];
        for (const a of answers)
            for (const t of [a, `${every[0x2022]}${a}`, `Answer: ${a}`])
                if (skipLead(t) !== refSkipLead(t)) differ.push(t.slice(0, 60));
        for (const c of every)
            for (const w of words)
                for (const t of [`${c}${w} yes`, `${c}${c}${w}`, `${w}${c}no`])
                    if (skipLead(t) !== refSkipLead(t)) differ.push(JSON.stringify(t));
        assert.deepEqual(differ.slice(0, 10), []);
    });

    it('after: every character after a verdict word', () => {
        const differ: string[] = [];
        for (const c of every)
            for (const t of [`Yes${c} it`, `No${c}${c}, so`, `No${c}`])
                for (const at of [2, 3, 4]) if (after(t, at) !== refAfter(t, at)) differ.push(JSON.stringify(t));
        for (const a of answers) for (const at of [0, 3, 10]) if (after(a, at) !== refAfter(a, at)) differ.push(a.slice(0, 60));
        assert.deepEqual(differ.slice(0, 10), []);
    });

    it('firstSentenceEnd: the tune answers from every sentence start, and every character around a full stop', () => {
        const differ: string[] = [];
        for (const a of answers) {
            for (let from = 0, guard = 0; from < a.length && guard < 80; guard++) {
                const e = firstSentenceEnd(a, from);
                if (e !== refSentenceEnd(a, from)) {
                    differ.push(`${from}: ${a.slice(0, 60)}`);
                    break;
                }
                from = Math.max(e, from + 1);
            }
        }
        for (const c of every)
            for (const w of words)
                for (const t of [`${w}. ${c}x`, `${c}${w}. b`, `${w}${c}. c`, `${w}! ${c}`, `${w}${c} d.`])
                    if (firstSentenceEnd(t) !== refSentenceEnd(t)) differ.push(JSON.stringify(t));
        assert.deepEqual(differ.slice(0, 10), []);
    });
});
