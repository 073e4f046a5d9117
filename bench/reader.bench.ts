/**
 * The reader (issue 28): yes/no answers read per second, and claims read per second with 100k entity names in
 * the automaton (its build time and peak memory), each against today's reader in the same run: the yes/no parser
 * of commit 8ff828e (read from git into a temporary file) and the open family's pattern linker (one word search
 * per lexicon form). Goals: ≥ 200,000 yes/no answers/s; ≥ 20,000 claim answers/s at 100k names.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { readYesNo, Linker, ClaimReader, type EntityEntry } from '../src/core/reader/index.js';
import { buildLexicon, linkClaims, splitClaims } from '../src/core/families/open/claims.js';
import type { ContextNode } from '../src/core/families/open/types.js';
import { measure, report, type BenchRow } from './support.js';

const YES_NO = ['Yes, it is true. The movie is called "Avatar".', 'No.', '**Yes**, Nolan directed it.', "I'm not sure about this movie.", 'Unsure. I lack information.',
    'No, but I am not entirely sure about the cast.', 'Avatar was released in 2009. The answer is yes.', "I'm sorry, but I can't help with that.", 'Answer: No, it was released in 2011.', 'Interesting question!'];

async function oldParser(): Promise<(s: string) => unknown> {
    const dir = mkdtempSync(path.join(tmpdir(), 'reader-bench-'));
    const src = execFileSync('git', ['show', '8ff828e:src/core/verify/answer.ts'], { encoding: 'utf8', cwd: path.dirname(new URL(import.meta.url).pathname) });
    const file = path.join(dir, 'answer.ts');
    writeFileSync(file, src);
    writeFileSync(path.join(dir, 'types.ts'), 'export type AnswerClass = string;\n');
    const mod = (await import(file)) as { parseBinary: (s: string) => unknown };
    return mod.parseBinary;
}

function perSecond(n: number, fn: (i: number) => unknown): number {
    const start = performance.now();
    let sink = 0;
    for (let i = 0; i < n; i++) if (fn(i)) sink++;
    const ms = performance.now() - start;
    if (sink < 0) console.log(sink);
    return n / (ms / 1000);
}

const rows: BenchRow[] = [];
const old = await oldParser();
const answers = Array.from({ length: 2000 }, (_, i) => `${YES_NO[i % YES_NO.length]} (${i})`);
perSecond(50_000, i => readYesNo(answers[i % answers.length]!)); // warm up
const reader = perSecond(400_000, i => readYesNo(answers[i % answers.length]!));
const reference = perSecond(400_000, i => old(answers[i % answers.length]!));
rows.push({ bench: 'reader', case: 'yes/no answers read', value: reader, unit: 'answers/s', reference, referenceName: 'parseBinary @8ff828e', ratio: reader / reference, goal: '≥ 200,000/s', met: reader >= 200_000 });

// 100k entity names: players, clubs, cities
const N = 100_000;
const entries: EntityEntry[] = [];
for (let i = 0; i < N * 0.8; i++) entries.push({ id: `p${i}`, type: 'Player', names: [`Name${i} Surname${i}`], person: true });
for (let i = 0; i < N * 0.15; i++) entries.push({ id: `c${i}`, type: 'Club', names: [`FC Club${i}`] });
for (let i = 0; i < N * 0.05; i++) entries.push({ id: `t${i}`, type: 'City', names: [`City${i}`] });
const built = await measure(() => new Linker(entries, { Club: ['club'], Player: ['player'], City: ['city'] }));
rows.push({ bench: 'reader', case: `automaton build, ${N} names`, value: built.ms, unit: 'ms', peakMB: built.peakMB });
const claims = new ClaimReader(built.result, [
    { name: 'club', phrases: ['plays for', 'played for'], head: 'Player', tail: 'Club', functional: true },
    { name: 'city', phrases: ['is based in', 'is located in'], head: 'Club', tail: 'City', functional: true },
]);
const facts = { objects: (s: string, r: string) => (r === 'club' ? [{ id: `c${Number(s.slice(1)) % 15000}` }] : r === 'city' ? [{ id: `t${Number(s.slice(1)) % 5000}` }] : []) };
const texts = Array.from({ length: 2000 }, (_, i) => `Name${i * 31} Surname${i * 31} plays for FC Club${(i * 31) % 15000}. The club is based in City${i % 5000}, and Surname${i * 31} does not play for FC Club${i + 1}.`);
perSecond(2000, i => claims.read(texts[i % texts.length]!, facts).length);
const claimRate = perSecond(40_000, i => claims.read(texts[i % texts.length]!, facts).length);
// Today's open-family linker over the same 100k names (one word search per form per claim): a small sample.
const nodes: ContextNode[] = entries.map(e => ({ id: e.id, label: e.names[0]!, type: e.type, entity: true, ppr: 0, prize: 0 } as ContextNode));
const lexicon = buildLexicon(nodes, [{ name: 'club', label: 'plays for', headType: 'Player', tailType: 'Club', words: ['plays'] }]);
const oldRate = perSecond(20, i => linkClaims(splitClaims(texts[i]!), lexicon).length);
rows.push({ bench: 'reader', case: `claims read, ${N} names loaded`, value: claimRate, unit: 'answers/s', reference: oldRate, referenceName: 'open linkClaims (per-form search)', ratio: claimRate / oldRate, goal: '≥ 20,000/s', met: claimRate >= 20_000, peakMB: process.memoryUsage().rss / (1 << 20) });
report(rows);
