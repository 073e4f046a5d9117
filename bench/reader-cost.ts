/**
 * Where a yes/no reading's time goes (issue 41), for the reader bench: how many regular-expression calls a read of
 * the bench's answers makes, and how long those calls take when replayed alone — the rest of the read is the
 * reader's own code (cutting, slicing, deciding, building the reading).
 *
 * Two steps, each in a fresh process (bench/reader.bench.ts runs them):
 *   record <answer.ts> <out.json>   reads the bench's answers with that module's readYesNo and writes every
 *                                   expression call it made (source, flags, text, lastIndex), answer by answer.
 *                                   Recording replaces RegExp.prototype.exec, which slows every later expression
 *                                   call of that process: nothing is timed there.
 *   replay <a.ts> <b.ts> <a.json> <b.json>
 *                                   in one untouched process, in interleaved trials: each reader's whole reads of
 *                                   the answers, and its recorded calls replayed alone; prints `COST {json}`: calls
 *                                   per answer, CPU ns per answer of each measure (medians).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { median } from './support.js';

/** The bench's yes/no answers: ten shapes, each with a number, 2,000 distinct texts. */
export const YES_NO = [
    'Yes, it is true. The movie is called "Avatar".',
    'No.',
    '**Yes**, Nolan directed it.',
    "I'm not sure about this movie.",
    'Unsure. I lack information.',
    'No, but I am not entirely sure about the cast.',
    'Avatar was released in 2009. The answer is yes.',
    "I'm sorry, but I can't help with that.",
    'Answer: No, it was released in 2011.',
    'Interesting question!',
];
export const yesNoAnswers = (): string[] => Array.from({ length: 2000 }, (_, i) => `${YES_NO[i % YES_NO.length]} (${i})`);

type Call = [source: string, flags: string, text: string, lastIndex: number];

export interface ExpressionCost {
    /** Expression calls per answer. */
    calls: number;
    /** CPU ns per answer: the whole read, and its expression calls replayed alone. */
    wholeNs: number;
    expressionNs: number;
}

/** Records and replays the expression calls of two readers' readYesNo (module files): [first, second]. */
export function expressionCost(first: string, second: string, dir: string): [ExpressionCost, ExpressionCost] {
    const self = new URL(import.meta.url).pathname;
    const run = (args: string[]): string => {
        const r = spawnSync(process.execPath, ['--import', 'tsx', self, ...args], { encoding: 'utf8', maxBuffer: 256 << 20 });
        if (r.status !== 0) throw new Error(`reader-cost ${args[0]} failed: ${r.stderr}`);
        return r.stdout;
    };
    const a = path.join(dir, 'calls-first.json');
    const b = path.join(dir, 'calls-second.json');
    run(['record', first, a]);
    run(['record', second, b]);
    const line = run(['replay', first, second, a, b])
        .split('\n')
        .find(l => l.startsWith('COST '));
    if (!line) throw new Error('reader-cost replay printed no COST line');
    return JSON.parse(line.slice('COST '.length)) as [ExpressionCost, ExpressionCost];
}

async function record(module: string, out: string): Promise<void> {
    const { readYesNo } = (await import(module)) as { readYesNo: (s: string) => unknown };
    const exec = RegExp.prototype.exec;
    let calls: Call[] = [];
    RegExp.prototype.exec = function (this: RegExp, s: string) {
        calls.push([this.source, this.flags, s, this.lastIndex]);
        return exec.call(this, s);
    };
    const all: Call[][] = [];
    for (const answer of yesNoAnswers()) {
        calls = [];
        readYesNo(answer);
        all.push(calls);
    }
    RegExp.prototype.exec = exec;
    writeFileSync(out, JSON.stringify(all));
}

async function replay(modules: string[], files: string[]): Promise<void> {
    const readers = await Promise.all(
        modules.map(async m => ((await import(m)) as { readYesNo: (s: string) => unknown }).readYesNo),
    );
    const answers = yesNoAnswers();
    // one string for each text, as in a read (where every call reads the answer or a slice of it): the answers
    // themselves, and one copy of each slice
    const texts = new Map(answers.map(a => [a, a]));
    const compiled = new Map<string, RegExp>();
    const plans = files.map(f =>
        (JSON.parse(readFileSync(f, 'utf8')) as Call[][]).map(calls =>
            calls.map(([source, flags, text, lastIndex]) => {
                const key = `${flags}/${source}`;
                let re = compiled.get(key);
                if (!re) compiled.set(key, (re = new RegExp(source, flags)));
                let same = texts.get(text);
                if (same === undefined) texts.set(text, (same = text));
                return { re, text: same, lastIndex };
            }),
        ),
    );
    // CPU ns per answer of `rounds` passes: the reader's whole reads, or its expression calls alone
    const cpuNs = (rounds: number, each: () => number): number => {
        const cpu = process.cpuUsage();
        let sink = 0;
        for (let r = 0; r < rounds; r++) sink += each();
        const used = process.cpuUsage(cpu);
        if (sink < 0) console.log(sink);
        return ((used.user + used.system) * 1000) / (rounds * answers.length);
    };
    const whole = (i: number, rounds: number): number =>
        cpuNs(rounds, () => {
            let n = 0;
            for (const a of answers) if (readers[i]!(a)) n++;
            return n;
        });
    const expressions = (i: number, rounds: number): number =>
        cpuNs(rounds, () => {
            let n = 0;
            for (const calls of plans[i]!)
                for (const c of calls) {
                    c.re.lastIndex = c.lastIndex;
                    if (c.re.test(c.text)) n++;
                }
            return n;
        });
    for (const i of [0, 1]) {
        whole(i, 20);
        expressions(i, 20);
    }
    // interleaved trials, the order alternating: a swing of the machine's speed hits both readers and both measures
    const trials = [0, 1].map(() => ({ whole: [] as number[], expressions: [] as number[] }));
    for (let t = 0; t < 10; t++)
        for (const i of t % 2 ? [1, 0] : [0, 1]) {
            trials[i]!.whole.push(whole(i, 25));
            trials[i]!.expressions.push(expressions(i, 25));
        }
    const cost: ExpressionCost[] = plans.map((plan, i) => ({
        calls: plan.reduce((n, calls) => n + calls.length, 0) / plan.length,
        wholeNs: median(trials[i]!.whole),
        expressionNs: median(trials[i]!.expressions),
    }));
    if (process.env.READER_COST_TRIALS)
        console.error(JSON.stringify(trials, (_, v: unknown) => (typeof v === 'number' ? Math.round(v) : v)));
    console.log(`COST ${JSON.stringify(cost)}`);
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
    const [step, ...args] = process.argv.slice(2);
    if (step === 'record') await record(args[0]!, args[1]!);
    else if (step === 'replay') await replay(args.slice(0, 2), args.slice(2));
    else throw new Error('usage: reader-cost.ts record <answer.ts> <out.json> | replay <a.ts> <b.ts> <a.json> <b.json>');
}
