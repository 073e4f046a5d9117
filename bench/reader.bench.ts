/**
 * The reader (issue 28): yes/no answers read per second, and claims read per second with 100k entity names in
 * the automaton (its build time and peak memory), each against today's readers in the same run: the yes/no parser
 * of commit 8ff828e, the claim reader of commit 06220d3 (a character-level automaton; both read from git into a
 * temporary folder) and the open family's old pattern linker (one word search per lexicon form).
 * Goals: ≥ 200,000 yes/no answers/s; ≥ 20,000 claim answers/s at 100k names.
 * Rates are answers per second of this process's CPU time (user + system) and, beside it, of wall time: on a
 * machine shared with other work the wall rate measures the scheduler as much as the reader.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { readYesNo, Linker, ClaimReader, type EntityEntry } from '../src/core/reader/index.js';
import type { ContextNode } from '../src/core/families/open/types.js';
import { expressionCost, yesNoAnswers } from './reader-cost.js';
import { measure, median, report, type BenchRow } from './support.js';

/** This file's folder (the references are read from git in it). */
const HERE = path.dirname(new URL(import.meta.url).pathname);

async function oldParser(): Promise<(s: string) => unknown> {
    const dir = mkdtempSync(path.join(tmpdir(), 'reader-bench-'));
    const src = execFileSync('git', ['show', '8ff828e:src/core/verify/answer.ts'], {
        encoding: 'utf8',
        cwd: HERE,
    });
    const file = path.join(dir, 'answer.ts');
    writeFileSync(file, src);
    writeFileSync(path.join(dir, 'types.ts'), 'export type AnswerClass = string;\n');
    const mod = (await import(file)) as { parseBinary: (s: string) => unknown };
    return mod.parseBinary;
}

/** The reader's readYesNo before issue 41's rule of where the verdict is (commit 6c34913), from git, beside the tree. */
async function beforeVerdictRule(): Promise<{ read: (s: string) => unknown; file: string }> {
    const dir = mkdtempSync(path.join(tmpdir(), 'reader-bench-6c34913-'));
    for (const f of ['answer', 'types'])
        writeFileSync(
            path.join(dir, `${f}.ts`),
            execFileSync('git', ['show', `6c34913:src/core/reader/${f}.ts`], { encoding: 'utf8', cwd: HERE }),
        );
    const file = path.join(dir, 'answer.ts');
    const mod = (await import(file)) as { readYesNo: (s: string) => unknown };
    return { read: mod.readYesNo, file };
}

/** The claim reader as it was at 06220d3 (before the word-level automaton), from git, beside the tree. */
async function oldClaimReader(): Promise<typeof ClaimReader> {
    const dir = mkdtempSync(path.join(tmpdir(), 'reader-bench-claims-'));
    const library = path.join(HERE, '..', 'node_modules', 'modern-ahocorasick', 'dist', 'index.js');
    for (const f of ['claims', 'link', 'fold']) {
        const src = execFileSync('git', ['show', `06220d3:src/core/reader/${f}.ts`], { encoding: 'utf8', cwd: HERE });
        writeFileSync(path.join(dir, `${f}.ts`), src.replace("from 'modern-ahocorasick'", `from '${library}'`));
    }
    const claims = (await import(path.join(dir, 'claims.ts'))) as { ClaimReader: typeof ClaimReader };
    const link = (await import(path.join(dir, 'link.ts'))) as { Linker: typeof Linker };
    // the old reader takes the old linker
    return class extends claims.ClaimReader {
        constructor(linker: Linker, relations: ConstructorParameters<typeof ClaimReader>[1]) {
            super(linker, relations);
        }
        static linker(entries: EntityEntry[], nouns: Record<string, string[]>): Linker {
            return new link.Linker(entries, nouns);
        }
    } as unknown as typeof ClaimReader & { linker(entries: EntityEntry[], nouns: Record<string, string[]>): Linker };
}

interface OpenLinker {
    buildLexicon(
        nodes: ContextNode[],
        relations: { name: string; label: string; headType: string; tailType: string; words: string[] }[],
    ): unknown;
    splitClaims(answer: string): unknown[];
    linkClaims(claims: unknown[], lexicon: unknown): unknown[];
}

/** The open family's own linker as it was at 06220d3 (one word search per lexicon form), from git. */
async function oldOpenLinker(): Promise<OpenLinker> {
    const dir = mkdtempSync(path.join(tmpdir(), 'reader-bench-open-'));
    // the reader's name helpers as they were then (today's reader no longer exports them), beside it
    const library = path.join(HERE, '..', 'node_modules', 'modern-ahocorasick', 'dist', 'index.js');
    for (const f of ['link', 'fold']) {
        const old = execFileSync('git', ['show', `06220d3:src/core/reader/${f}.ts`], { encoding: 'utf8', cwd: HERE });
        writeFileSync(path.join(dir, `${f}.ts`), old.replace("from 'modern-ahocorasick'", `from '${library}'`));
    }
    const src = execFileSync('git', ['show', '06220d3:src/core/families/open/claims.ts'], { encoding: 'utf8', cwd: HERE })
        .replace("'../../verify/normalise.js'", `'${path.join(HERE, '..', 'src/core/verify/normalise.js')}'`)
        .replace("'../../reader/index.js'", `'${path.join(dir, 'link.ts')}'`)
        .replace("'./types.js'", `'${path.join(HERE, '..', 'src/core/families/open/types.js')}'`);
    writeFileSync(path.join(dir, 'claims.ts'), src);
    return (await import(path.join(dir, 'claims.ts'))) as OpenLinker;
}

/** Answers per second of CPU time, and of wall time. */
function rates(n: number, fn: (i: number) => unknown): { cpu: number; wall: number } {
    const start = performance.now();
    const cpu0 = process.cpuUsage();
    let sink = 0;
    for (let i = 0; i < n; i++) if (fn(i)) sink++;
    const used = process.cpuUsage(cpu0);
    const ms = performance.now() - start;
    if (sink < 0) console.log(sink);
    return { cpu: n / ((used.user + used.system) / 1e6), wall: n / (ms / 1000) };
}

function perSecond(n: number, fn: (i: number) => unknown): number {
    return rates(n, fn).cpu;
}

const rows: BenchRow[] = [];
const old = await oldParser();
const answers = yesNoAnswers();
perSecond(50_000, i => readYesNo(answers[i % answers.length]!)); // warm up
const reader = perSecond(400_000, i => readYesNo(answers[i % answers.length]!));
const reference = perSecond(400_000, i => old(answers[i % answers.length]!));
rows.push({
    bench: 'reader',
    case: 'yes/no answers read',
    value: reader,
    unit: 'answers/s',
    reference,
    referenceName: 'parseBinary @8ff828e',
    ratio: reader / reference,
    goal: '≥ 200,000/s',
    met: reader >= 200_000,
});
// issue 41: where the verdict is (verdict.ts) against the reader just before it, in the same run. Both are warmed
// alike and measured in interleaved trials (the order alternating), each side's rate the median of its trials: on
// a shared machine one long trial after the other measured the load's swings as much as the readers.
const { read: before, file: beforeFile } = await beforeVerdictRule();
perSecond(50_000, i => before(answers[i % answers.length]!));
perSecond(50_000, i => readYesNo(answers[i % answers.length]!));
const beforeTrials: number[] = [];
const readerTrials: number[] = [];
for (let t = 0; t < 8; t++) {
    const ref = () => beforeTrials.push(perSecond(50_000, i => before(answers[i % answers.length]!)));
    const ours = () => readerTrials.push(perSecond(50_000, i => readYesNo(answers[i % answers.length]!)));
    const order = t % 2 ? [ours, ref] : [ref, ours];
    for (const run of order) run();
}
const beforeRate = median(beforeTrials);
const readerAgain = median(readerTrials);
rows.push({
    bench: 'reader',
    case: 'yes/no answers read (where the verdict is, issue 41)',
    value: readerAgain,
    unit: 'answers/s',
    reference: beforeRate,
    referenceName: 'readYesNo @6c34913',
    ratio: readerAgain / beforeRate,
    goal: '≥ 0.8× @6c34913',
    met: readerAgain >= 0.8 * beforeRate,
});
// Where that time goes: the expression calls each read makes, replayed alone (bench/reader-cost.ts); the rest of a
// read (its whole time above less its expressions) is the reader's own code.
const [ours, theirs] = expressionCost(
    path.join(HERE, '..', 'src', 'core', 'reader', 'answer.ts'),
    beforeFile,
    path.dirname(beforeFile),
);
/** A row of today's reader beside 6c34913's. */
const beside = (name: string, unit: string, value: number, reference: number): BenchRow => ({
    bench: 'reader',
    case: `yes/no: ${name}`,
    value,
    unit,
    reference,
    referenceName: 'readYesNo @6c34913',
    ratio: value / reference,
});
rows.push(
    beside('expression calls per answer', 'calls', ours.calls, theirs.calls),
    beside('CPU per answer, whole read (same process as the next two)', 'ns', ours.wholeNs, theirs.wholeNs),
    beside('CPU per answer in expressions (its calls replayed)', 'ns', ours.expressionNs, theirs.expressionNs),
    beside(
        'CPU per answer outside expressions (whole less replayed)',
        'ns',
        ours.wholeNs - ours.expressionNs,
        theirs.wholeNs - theirs.expressionNs,
    ),
);

// 100k entity names: players, clubs, cities
const N = 100_000;
const entries: EntityEntry[] = [];
for (let i = 0; i < N * 0.8; i++) entries.push({ id: `p${i}`, type: 'Player', names: [`Name${i} Surname${i}`], person: true });
for (let i = 0; i < N * 0.15; i++) entries.push({ id: `c${i}`, type: 'Club', names: [`FC Club${i}`] });
for (let i = 0; i < N * 0.05; i++) entries.push({ id: `t${i}`, type: 'City', names: [`City${i}`] });
const nouns = { Club: ['club'], Player: ['player'], City: ['city'] };
const built = await measure(() => new Linker(entries, nouns));
rows.push({ bench: 'reader', case: `automaton build, ${N} names`, value: built.ms, unit: 'ms', peakMB: built.peakMB });
const relations = [
    { name: 'club', phrases: ['plays for', 'played for'], head: 'Player', tail: 'Club', functional: true },
    { name: 'city', phrases: ['is based in', 'is located in'], head: 'Club', tail: 'City', functional: true },
];
const claims = new ClaimReader(built.result, relations);
const facts = {
    objects: (s: string, r: string) =>
        r === 'club' ? [{ id: `c${Number(s.slice(1)) % 15000}` }] : r === 'city' ? [{ id: `t${Number(s.slice(1)) % 5000}` }] : [],
};
// Half plain ASCII, half as models write: curly apostrophes, dashes, a list item, a parenthesis.
const texts = Array.from({ length: 2000 }, (_, i) =>
    i % 2
        ? `Name${i * 31} Surname${i * 31} plays for FC Club${(i * 31) % 15000}. The club is based in City${i % 5000}, and Surname${i * 31} does not play for FC Club${i + 1}.`
        : `Yes \u2014 Name${i * 7} Surname${i * 7} (the club\u2019s captain) played for FC Club${i % 15000} in 2019; it\u2019s based in City${i % 5000}, but he never played for FC Club${i + 3}.\n- Surname${i * 7} is not located in City${i % 77}.`,
);
perSecond(2000, i => claims.read(texts[i % texts.length]!, facts).length);
const claimRate = rates(40_000, i => claims.read(texts[i % texts.length]!, facts).length);
const peakMB = process.memoryUsage().rss / (1 << 20);
// Today's claim reader (06220d3) over the same names and answers, in the same process.
const Old = (await oldClaimReader()) as typeof ClaimReader & {
    linker(entries: EntityEntry[], nouns: Record<string, string[]>): Linker;
};
const oldBuilt = await measure(() => Old.linker(entries, nouns));
const oldClaims = new Old(oldBuilt.result, relations);
perSecond(2000, i => oldClaims.read(texts[i % texts.length]!, facts).length);
const oldRate = rates(40_000, i => oldClaims.read(texts[i % texts.length]!, facts).length);
rows.push({
    bench: 'reader',
    case: `automaton build @06220d3, ${N} names`,
    value: oldBuilt.ms,
    unit: 'ms',
    peakMB: oldBuilt.peakMB,
});
rows.push({
    bench: 'reader',
    case: `claims read, ${N} names loaded (CPU time)`,
    value: claimRate.cpu,
    unit: 'answers/s',
    reference: oldRate.cpu,
    referenceName: 'ClaimReader @06220d3',
    ratio: claimRate.cpu / oldRate.cpu,
    goal: '≥ 20,000/s',
    met: claimRate.cpu >= 20_000,
    peakMB,
});
rows.push({
    bench: 'reader',
    case: `claims read, ${N} names loaded (wall time)`,
    value: claimRate.wall,
    unit: 'answers/s',
    reference: oldRate.wall,
    referenceName: 'ClaimReader @06220d3',
    ratio: claimRate.wall / oldRate.wall,
    goal: '≥ 20,000/s',
    met: claimRate.wall >= 20_000,
});
// The open family's own linker as it was at 06220d3 (one word search per lexicon form): a small sample.
const open = await oldOpenLinker();
const nodes: ContextNode[] = entries.map(
    e => ({ id: e.id, label: e.names[0]!, type: e.type, entity: true, ppr: 0, prize: 0 }) as ContextNode,
);
const lexicon = open.buildLexicon(nodes, [
    { name: 'club', label: 'plays for', headType: 'Player', tailType: 'Club', words: ['plays'] },
]);
const openRate = perSecond(20, i => open.linkClaims(open.splitClaims(texts[i]!), lexicon).length);
rows.push({
    bench: 'reader',
    case: `open linkClaims @06220d3 (per-form search), ${N} names`,
    value: openRate,
    unit: 'answers/s',
    reference: claimRate.cpu,
    referenceName: 'ClaimReader',
    ratio: claimRate.cpu / openRate,
});
report(rows);
