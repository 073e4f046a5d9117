/**
 * Differential check of the closed-answer readers and the denial spans: the readers of this tree against the same readers at a commit
 * (default d85be84, before the word scanner of src/core/reader/scan.ts), read from git into a temporary folder.
 * Every reading (label, span, why, stance, rationale start, the spans weighed) must be the same.
 *
 * Inputs: every string of the test fixtures (not the natural corpus's held-out part), of the reader / verify /
 * family unit tests, of ERBench's recorded answers under /work/shared/data (when present), and random answers
 * assembled from verdict words, hedges, refusals, conclusions, punctuation, Markdown and typographic apostrophes.
 *
 *   ./node_modules/.bin/node --import tsx scripts/reader-differential.ts [commit] [random count]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as now from '../src/core/reader/answer.js';
import { findVerdict } from '../src/core/reader/verdict.js';
import * as denial from '../src/core/reader/denial.js';

const root = path.join(path.dirname(new URL(import.meta.url).pathname), '..');
const commit = process.argv[2] ?? 'd85be84';
const randomCount = Number(process.argv[3] ?? 40_000);

const dir = mkdtempSync(path.join(tmpdir(), `reader-diff-${commit}-`));
for (const f of execFileSync('git', ['ls-tree', '--name-only', commit, 'src/core/reader/'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(f => f.endsWith('.ts')))
    writeFileSync(
        path.join(dir, path.basename(f)),
        execFileSync('git', ['show', `${commit}:${f}`], { cwd: root, encoding: 'utf8' }),
    );
const old = (await import(path.join(dir, 'answer.ts'))) as typeof now;
const oldVerdict = (await import(path.join(dir, 'verdict.ts'))) as { findVerdict: typeof findVerdict };
const oldDenial = (await import(path.join(dir, 'denial.ts'))) as typeof denial;

// ---------------------------------------------------------------- inputs
const inputs = new Set<string>();
function walk(d: string, out: string[]): void {
    for (const e of readdirSync(d)) {
        const p = path.join(d, e);
        if (e === 'held' || e === 'node_modules' || e.startsWith('.')) continue;
        if (statSync(p).isDirectory()) walk(p, out);
        else out.push(p);
    }
}
function strings(v: unknown): void {
    if (typeof v === 'string') inputs.add(v);
    else if (Array.isArray(v)) v.forEach(strings);
    else if (v && typeof v === 'object') Object.values(v).forEach(strings);
}
/** String literals of a source file, as the language reads them (the repository's own files). */
function literals(src: string): void {
    for (const m of src.matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\$]|\\.)*`/g)) {
        try {
            const v = new Function(`return ${m[0]}`)() as unknown;
            if (typeof v === 'string') inputs.add(v);
        } catch {
            /* not a literal after all */
        }
    }
}
function file(p: string): void {
    const text = readFileSync(p, 'utf8');
    const ext = path.extname(p);
    if (ext === '.jsonl')
        for (const line of text.split('\n'))
            try {
                strings(JSON.parse(line));
            } catch {
                inputs.add(line);
            }
    else if (ext === '.json')
        try {
            strings(JSON.parse(text));
        } catch {
            literals(text);
        }
    else if (ext === '.log') {
        // ERBench's logs: each answer after "A:", to the gold answer or the next question
        for (const m of text.matchAll(/\nA:([\s\S]*?)(?=\nGold Answer|\n\d+-\d+th question|$)/g)) inputs.add(m[1]!);
        for (const line of text.split('\n')) inputs.add(line);
    } else if (ext === '.ts' || ext === '.py' || ext === '.mjs') literals(text);
    else for (const line of text.split('\n')) inputs.add(line);
}
const counts: Record<string, number> = {};
function source(name: string, files: string[]): void {
    const before = inputs.size;
    for (const f of files) file(f);
    counts[name] = inputs.size - before;
}
const fixtures: string[] = [];
walk(path.join(root, 'test/fixtures'), fixtures);
source('fixtures', fixtures);
const tests: string[] = [];
for (const d of ['test/unit/reader', 'test/unit/verify', 'test/unit/families']) walk(path.join(root, d), tests);
source('unit tests', tests);
const shared: string[] = [];
if (existsSync('/work/shared/data')) walk('/work/shared/data', shared);
source('shared data', shared);

// random answers from the rules' vocabulary, seeded
let seed = 41;
const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
};
const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;
const PIECES = [
    'Yes',
    'No',
    'yes',
    'no',
    'YES',
    'Nope',
    'Yeah',
    'True',
    'False',
    'Correct',
    'Incorrect',
    'Unsure',
    'Not sure',
    "I don't know",
    'I don\u2019t know',
    'Not really',
    'Absolutely not',
    'Of course',
    'Certainly',
    'Indeed',
    'Right',
    "I'm not sure",
    "I'm not entirely sure",
    'I am not certain',
    'I think',
    'I believe',
    'probably',
    'likely',
    'maybe',
    'perhaps',
    'It seems',
    'as far as I know',
    'to my knowledge',
    'if I recall correctly',
    'my best guess is',
    "I'm sorry, but I can't help with that",
    'As an AI language model, I cannot',
    'I cannot verify',
    'I can\u2019t say',
    "I don't have enough information",
    'I must decline',
    'I would rather not guess',
    'hesitant to give a firm verdict',
    'so',
    'So',
    'therefore',
    'Therefore',
    'thus',
    'In conclusion',
    'Overall',
    'Finally',
    'The answer is',
    'the answer is',
    '**Answer:**',
    'Answer:',
    'Final answer:',
    'My final answer is',
    "I'd go with",
    'I would answer',
    'either way',
    "I can't commit either way",
    'one way or the other',
    'it depends',
    'It depends on which',
    'If you mean the first, then',
    'the statement is true',
    'The statement is false',
    'the claim is not correct',
    'this statement is accurate',
    'whether the statement is true',
    "It's true that",
    'That is incorrect',
    "That's correct",
    "It isn't true",
    'there is no such film',
    'There was no',
    'never existed',
    'does not exist',
    'there is indeed a',
    'no such player',
    'but',
    'however',
    'That said',
    'still',
    'Sure! I\u2019d be happy to help.',
    'Great question!',
    'Let me think.',
    'Interesting question',
    'Hmm,',
    'Well,',
    'Actually,',
    'Oh,',
    'Okay',
    'Thanks',
    'Here is my answer',
    'Avatar was released in 2009',
    'Nolan directed it',
    'the movie',
    'the cast',
    'it was released in 2011',
    'James Cameron',
    'No. 5',
    'e.g. Avatar',
    'Dr. Strange',
    'S.W.A.T. released',
    'Airplane! released in 1980',
    'knowledge',
    'knowing',
    'neither',
    'statements',
    'reclaim',
    'notably',
    'nothing',
    'answered',
    'surely',
    'Option 2',
    'option 3 is wrong',
    'The inaccurate option is Option 1',
    '(B)',
    '1.',
    'A)',
    'none of the above',
    'all options are correct',
    'yes/unsure',
    'no / unsure',
    'Yes and no',
    'both yes and no',
    'I\u2019m afraid not',
    'I believe so',
    "I don't think so",
    'depends',
    'claim',
    'statement',
    'one',
    'i',
    'I',
    'im',
    'Im not sure',
    'dont know',
    'idont know',
    'x',
    '2009',
    '42',
    // denial forms (denial.ts)
    'not Avatar',
    'but Titanic',
    'rather than James Cameron',
    'instead of 2009',
    'neither Avatar nor Titanic',
    'which is wrong',
    'is incorrect',
    'It is not true that Avatar came out in 2012',
    'According to the passage',
    'the passage says 2012',
    'the facts list Titanic as a 1997 film',
    'is listed as',
    'they claim',
    'contrary to the context',
    'None of that fits what I know',
    'Dr. No',
    'J. Lingard',
    'S.W.A.T.',
];
const GLUE = [
    ' ',
    ' ',
    ' ',
    ', ',
    '. ',
    '.\n',
    '! ',
    '? ',
    ': ',
    ' \u2014 ',
    ' - ',
    '; ',
    '\n\n',
    '\n- ',
    '**',
    '*',
    '"',
    "'",
    '\u2019',
    '\u201c',
    '# ',
    '> ',
    '(',
    ')',
    '',
    '_',
    '`',
    '\u2022 ',
    ' \u2013 ',
    '...',
    '\t',
];
for (let i = 0; i < randomCount; i++) {
    let s = rand(4) === 0 ? pick(GLUE) : '';
    const n = 1 + rand(9);
    for (let k = 0; k < n; k++) s += pick(PIECES) + pick(GLUE);
    if (rand(3) === 0) s = s.trimEnd() + pick(['.', '!', '?', '', '\n']);
    inputs.add(s);
}
counts['random'] = randomCount;

// ---------------------------------------------------------------- readings
const QUESTION =
    'Is it true that there are no movies, released in 2009, starring CCH Pounder where James Cameron is the director?';
const PROPOSITION = { question: QUESTION, entities: ['CCH Pounder', 'James Cameron'], names: ['director'] };
const OPTIONS = ['Avatar was released in 2009.', 'James Cameron directed Avatar.', 'CCH Pounder starred in Titanic.'];
type Reader = { readers: typeof now; findVerdict: typeof findVerdict; denial: typeof denial };
const calls: [string, (r: Reader, s: string) => unknown][] = [
    ['readYesNo', (r, s) => r.readers.readYesNo(s)],
    ['readYesNo paper', (r, s) => r.readers.readYesNo(s, { rule: 'paper' })],
    ['readYesNo question', (r, s) => r.readers.readYesNo(s, { question: QUESTION })],
    ['readYesNo proposition', (r, s) => r.readers.readYesNo(s, { question: QUESTION, proposition: PROPOSITION })],
    ['readStatement', (r, s) => r.readers.readStatement(s)],
    ['readStatement paper', (r, s) => r.readers.readStatement(s, { rule: 'paper' })],
    ['readChoice', (r, s) => r.readers.readChoice(s, OPTIONS)],
    ['readChoice paper', (r, s) => r.readers.readChoice(s, OPTIONS, { rule: 'paper' })],
    ['readShort', (r, s) => r.readers.readShort(s)],
    ['findVerdict full', (r, s) => r.findVerdict(s, {}, false)],
    ['deniedSpans', (r, s) => r.denial.deniedSpans(s)],
    ['reportedSpans', (r, s) => r.denial.reportedSpans(s)],
    ['describedSpans', (r, s) => r.denial.describedSpans(s)],
];
const ours: Reader = { readers: now, findVerdict, denial };
const theirs: Reader = { readers: old, findVerdict: oldVerdict.findVerdict, denial: oldDenial };
const same = (a: () => unknown, b: () => unknown): [boolean, string, string] => {
    let x: string, y: string;
    try {
        x = JSON.stringify(a());
    } catch (e) {
        x = `throws ${String(e)}`;
    }
    try {
        y = JSON.stringify(b());
    } catch (e) {
        y = `throws ${String(e)}`;
    }
    return [x === y, x, y];
};
let differences = 0;
for (const s of inputs)
    for (const [name, call] of calls) {
        const [ok, x, y] = same(
            () => call(ours, s),
            () => call(theirs, s),
        );
        if (ok) continue;
        if (++differences <= 10) console.log(`DIFF ${name} ${JSON.stringify(s)}\n  now ${x}\n  was ${y}`);
    }
console.log(
    `inputs ${inputs.size} (${Object.entries(counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}), readers ${calls.length}, readings compared ${inputs.size * calls.length}, differences ${differences}`,
);
process.exitCode = differences === 0 ? 0 : 1;
