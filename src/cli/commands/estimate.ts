import { print } from '../print.js';
import type { Command } from './command.js';
import { stringFlag, UsageError, type ParsedArgs, unknownOption } from '../args.js';
import { estimateProbe, powerLines, suitePower, usd, type EstimateBudget } from '../../core/run/index.js';
import { printError } from '../print.js';

const FLAGS = new Set([
    'probe',
    'model',
    'cheap',
    'budget',
    'metric',
    'target',
    'seed',
    'db',
    'yes',
    'format',
    'help',
    'power',
    'suite',
    'difference',
    'discordant',
]);
const POWER_FLAGS = new Set(['power', 'suite', 'probe', 'seed', 'difference', 'discordant', 'db', 'format', 'help']);

const num = (s: string | undefined, name: string): number | undefined => {
    if (s === undefined) return undefined;
    const n = s.endsWith('%') ? Number(s.slice(0, -1)) / 100 : Number(s);
    if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a positive number, not "${s}".`);
    return n;
};

/**
 * `--budget 30%` is a share of the triples (100 % = all of them), `--budget 40` a count of triples, `--budget 500calls`
 * the expensive model's calls, `--budget $2.50` dollars at its price.
 */
function budgetOf(s: string): EstimateBudget {
    const calls = /^\s*(\d+)\s*calls?\s*$/i.exec(s);
    if (calls) return { calls: num(calls[1], 'budget')! };
    const dollars = /^\s*\$\s*(\d+(?:\.\d+)?)\s*$/.exec(s) ?? /^\s*(\d+(?:\.\d+)?)\s*(?:usd|dollars?)\s*$/i.exec(s);
    if (dollars) return { usd: num(dollars[1], 'budget')! };
    const n = num(s, 'budget')!;
    if (!s.endsWith('%')) {
        if (!Number.isInteger(n))
            throw new UsageError(`--budget is a whole number of triples or a share such as 30%, not "${s}".`);
        return { count: n };
    }
    if (n > 1) throw new UsageError(`--budget as a share is at most 100%, not "${s}".`);
    return { share: n };
}

export const estimate: Command = {
    summary:
        "Before a run: the difference a suite can detect (--power); or a model's T / I / C over a statement probe from a sample.",
    options: [...FLAGS],
    usage: `halluprobe estimate <spec.probe> --power [--suite S] [--probe P] [--difference D] [--discordant S] [--format text|json]

Power before a run (no model is called): per family and probe, the smallest difference between two models or
variants that compare's paired test detects at 80 % power with the questions of a report group, and how many
questions per group the difference D (default 0.05) needs.
  --discordant S    the share of questions two models answer differently (default 0.5, two independent models
                    at 50 %: the conservative case; compare reports the share it saw between earlier runs)

halluprobe estimate <spec.probe> --probe P --model EXPENSIVE --cheap CHEAP --budget N|10%|500calls|$2 [options]

The cheap model (or "offline") answers every statement of probe P; the expensive model answers a sample of
the triples chosen round by round where the interval is widest; prediction-powered inference combines both.
  --budget B        what the expensive model may spend: N triples, X% of the triples, N calls ("500calls"),
                    or dollars at its price ("$2.50")
  --metric T|I|C    which figure (default C, correctness)
  --target W        stop once the 95 % interval's half-width is at most W
  --seed K          the sample's seed (default 1)
  --db FILE         the results store (default: .halluprobe/results.db beside the spec)
  --yes             send keys to the configured hosts and accept cost estimates without asking
  --format text|json
Exit: 0 done, 1 a run failed, 2 bad usage.`,
    async run(args: ParsedArgs) {
        if (args.flags.power !== undefined) return power(args, this.usage);
        const file = args.positional[0];
        const probe = stringFlag(args, 'probe');
        const expensive = stringFlag(args, 'model');
        const cheap = stringFlag(args, 'cheap');
        const metric = (stringFlag(args, 'metric') ?? 'C').toUpperCase();
        const unknown = unknownOption(args, FLAGS);
        const problem = !file
            ? 'no spec file given'
            : unknown
              ? unknown
              : !probe
                ? 'name the statement probe with --probe'
                : !expensive
                  ? 'name the model to estimate with --model'
                  : !cheap
                    ? 'name the cheap model with --cheap (a model of the spec, provider:id, or offline)'
                    : !['T', 'I', 'C'].includes(metric)
                      ? `--metric must be T, I or C, not "${metric}"`
                      : undefined;
        if (problem) {
            console.error(`halluprobe estimate: ${problem}\n\n${this.usage}`);
            return 2;
        }
        const budget = budgetOf(stringFlag(args, 'budget') ?? '10%');
        const yes = args.flags.yes === true;
        const r = await estimateProbe({
            spec: file!,
            probe: probe!,
            expensive: expensive!,
            cheap: cheap!,
            budget,
            metric,
            target: num(stringFlag(args, 'target'), 'target'),
            seed: num(stringFlag(args, 'seed'), 'seed'),
            db: stringFlag(args, 'db'),
            confirmHost: async () => yes,
            confirmCost: async () => yes,
            onRound: (n, b) => console.error(`  round ${n}: asking the expensive model (budget ${b} triples)`),
        });
        // Failed expensive calls are left out of the estimate and make the exit status 1 (a run failed).
        const status = r.failed > 0 ? 1 : 0;
        if (stringFlag(args, 'format') === 'json') {
            print(JSON.stringify(r, null, 2));
            return status;
        }
        const f = (x: number) => x.toFixed(3);
        print(
            `${r.metric} of ${expensive} over ${r.population} triples of ${probe}: ${f(r.chosen.value)} [${f(r.chosen.ci[0])}, ${f(r.chosen.ci[1])}] (estimated, ${r.chosen.method === 'ppi' ? 'prediction-powered' : 'sample only'})`,
        );
        print(
            `  measured: ${expensive} on ${r.labelled} triples (${r.expensiveQuestions} statements, ${Math.round((100 * r.labelled) / r.population)} % of the triples); ${cheap} on all ${r.population}: ${f(r.cheapMeasured)}`,
        );
        print(
            `  interval half-width: ${f(r.chosen.halfWidth)} (prediction-powered ${f(r.ppi.halfWidth)}, sample only ${f(r.sampleOnly.halfWidth)})`,
        );
        const money = (x: number | undefined) => (x === undefined ? '' : ` (${usd(x)})`);
        print(
            `  spent: ${r.spent.calls} calls of ${expensive}${money(r.full.usd === undefined ? undefined : r.spent.usd)}; budget ${r.budget.units} ${r.unit} = ${r.budget.calls} calls${money(r.budget.usd)}; a full run: ${r.full.calls} calls${money(r.full.usd)} (spent ${Math.round((100 * r.spent.calls) / Math.max(1, r.full.calls))} % of it)`,
        );
        print(
            `  per stratum: ${Object.entries(r.perStratum)
                .map(([k, n]) => `${k} ${n}`)
                .join(', ')}; runs: cheap ${r.cheapRun}, expensive ${r.expensiveRuns.join(', ')}`,
        );
        if (r.failed > 0)
            print(
                `  ${r.failed} triple${r.failed === 1 ? '' : 's'} left out: the expensive model's calls failed (see halluprobe runs; asking again retries them)`,
            );
        return status;
    },
};

const share = (s: string | undefined, name: string, max: number): number | undefined => {
    const n = num(s, name);
    if (n !== undefined && n > max) throw new UsageError(`--${name} is at most ${max}, not "${s}".`);
    return n;
};

/** `estimate --power`: the engine's suitePower, printed. */
async function power(args: ParsedArgs, usage: string): Promise<number> {
    const file = args.positional[0];
    const unknown = unknownOption(args, POWER_FLAGS);
    if (!file || unknown) {
        printError(`halluprobe estimate: ${unknown ?? 'no spec file given'}\n\n${usage}`);
        return 2;
    }
    const seed = num(stringFlag(args, 'seed'), 'seed');
    const r = await suitePower({
        spec: file,
        suite: stringFlag(args, 'suite'),
        probe: stringFlag(args, 'probe'),
        db: stringFlag(args, 'db'),
        ...(seed !== undefined ? { seed } : {}),
        difference: share(stringFlag(args, 'difference'), 'difference', 1),
        discordant: share(stringFlag(args, 'discordant'), 'discordant', 1),
    });
    if (r.blocked) {
        for (const d of r.diagnostics)
            printError(`${d.file}:${d.range.start.line + 1}:${d.range.start.character + 1} error [${d.code}] ${d.message}`);
        return 1;
    }
    print(stringFlag(args, 'format') === 'json' ? JSON.stringify(r, null, 2) : powerLines(r).join('\n'));
    return 0;
}
