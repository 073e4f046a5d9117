import * as path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Command } from './command.js';
import { intFlag, specFileArgs, stringFlag, type ParsedArgs } from '../args.js';
import { fileKeyBindings, redact, type ConfirmHost } from '../../core/models/index.js';
import type { Progress } from '../../core/run/index.js';
import {
    heldLine,
    runSpec,
    pacingLines,
    preparedLines,
    replayLines,
    progressBar,
    progressLine,
    summaryLines,
    usd as usdText,
    waitingParts,
} from '../../core/run/index.js';
import { problemText } from '../../core/errors.js';
import { print, printError, writeErr } from '../print.js';
import { cliCommand } from '../../core/invocation.js';
import { printSources } from './check.js';

const FLAGS = new Set([
    'suite',
    'model',
    'limit',
    'seed',
    'concurrency',
    'db',
    'db-password-env',
    'format',
    'resume',
    'yes',
    'new',
    'help',
    'no-verify',
    'batch',
    'join',
]);

export const run: Command = {
    summary: "Ask the models a suite's questions, store the answers, verify them.",
    options: [...FLAGS],
    usage: `halluprobe run <spec.probe> [options]

Generates the suite's questions, asks every model, stores each answer as it arrives, then verifies them.
  --suite S          the suite to run (default: the spec's first suite)
  --model M          instead of the suite's models (comma-separated): a model declared in the spec,
                     openai:<id>, ollama:<id>, azure:<id>, openrouter:<id>, replay:<file>[+<file>…] or offline; NAME=<model> names it
  --limit N          at most N questions
  --seed K           sampling seed (default: the suite's)
  --concurrency C    parallel requests per model (overrides the model's setting)
  --db FILE|URL      the results store: a file (default: .halluprobe/results.db beside the spec) or a team's
                     postgres://user@host/db (password from PGPASSWORD or ~/.pgpass, never in the URL)
  --db-password-env VAR  a PostgreSQL store's password is in the environment variable VAR
  --resume ID        continue run ID; without it an unfinished run of the same spec and suite continues
  --new              start a new run even if an unfinished one exists (answers still come from the cache)
  --batch            send the questions to the provider's Batch API (half price, within 24 h; openai only);
                     Ctrl-C leaves the batches running: --resume collects them later
  --join             work on the run together with other machines (or processes) sharing the store: each claims
                     chunks of its questions in turn, and a worker that dies hands its chunks on when its lease
                     lapses (HALLUPROBE_LEASE_STALE_MS, default 30 s). Joins the run named by --resume, else the
                     latest unfinished run of this spec and suite, else starts one; start every worker the same way
  --yes              do not ask: send keys to the configured hosts, accept the cost estimate
  --format text|json the summary as text (default) or JSON
Keys come from the environment (OPENAI_API_KEY, or the model's key_env); they are never stored.
Ctrl-C stops new calls at once; the run can be resumed. Exit: 0 done, 1 failures or cancelled, 2 bad usage.`,
    async run(args: ParsedArgs) {
        const parsed = specFileArgs(args, FLAGS);
        if (parsed.problem !== undefined) {
            printError(`halluprobe run: ${parsed.problem}\n\n${this.usage}`);
            return 2;
        }
        const { file, format } = parsed;
        const json = format === 'json';
        const say = (line: string) => {
            if (!json) printError(line);
        };
        const yes = args.flags.yes === true;
        const modelFlag = stringFlag(args, 'model');
        const controller = new AbortController();
        const progress = progressDrawer(json);
        let secrets: string[] = [];
        let shown = 0;
        const streamed = new Set<string>();
        const result = await withSignals(controller, json, () =>
            runSpec({
                spec: file,
                suite: stringFlag(args, 'suite'),
                limit: intFlag(args, 'limit'),
                seed: intFlag(args, 'seed'),
                models: modelFlag
                    ? modelFlag
                          .split(',')
                          .map(m => m.trim())
                          .filter(Boolean)
                    : undefined,
                db: stringFlag(args, 'db'),
                dbPasswordEnv: stringFlag(args, 'db-password-env'),
                resume: stringFlag(args, 'resume') ?? (args.flags.new === true ? 'new' : 'auto'),
                concurrency: intFlag(args, 'concurrency'),
                confirmHost: confirmer(yes),
                bindings: fileKeyBindings(),
                origin: 'cli',
                signal: controller.signal,
                verify: args.flags['no-verify'] !== true,
                batch: args.flags.batch === true ? true : undefined,
                join: args.flags.join === true,
                confirmCost: async usd => yes || ask(`Spend about ${usdText(usd)}? [y/N] `),
                onSpec: spec => {
                    if (!json) printSources(spec);
                },
                onPrepared: prepared => {
                    secrets = prepared.models.map(m => m.secret ?? '').filter(Boolean);
                    for (const line of preparedLines(prepared, path.basename(file))) say(line);
                },
                onProgress: p => progress(p),
                // In logs, the first failures as they happen, each distinct error once (the summary counts them).
                onAnswer: e => {
                    if (!e.error || process.stderr.isTTY || json) return;
                    const text = `${e.model}: ${redact(e.error, secrets)}`;
                    if (streamed.has(text) || ++shown > 10) return;
                    streamed.add(text);
                    writeErr(`  ${e.question.id} ${text}\n`);
                },
            }),
        );
        for (const note of result.notes.slice(0, 5)) printError(problemText(note));
        if (result.notes.length > 5)
            printError(`… and ${result.notes.length - 5} more (${cliCommand()} check ${file} lists them all).`);
        if (result.progress) progress(result.progress, true);
        if (result.status === 'declined') {
            say('Not started. Run again with --yes to accept the estimate.');
            return 1;
        }
        if (result.verifyNote)
            say(
                `${result.verifyNote[0]!.toUpperCase()}${result.verifyNote.slice(1)} (answers are stored; run "${cliCommand()} report" later).`,
            );
        const { counts, failures, run: runRecord } = result;
        if (json) {
            print(
                JSON.stringify(
                    {
                        run: runRecord,
                        counts,
                        verified: result.verified,
                        store: result.store,
                        failures: failures.slice(0, 50),
                        pacing: result.progress?.pacing,
                    },
                    null,
                    2,
                ),
            );
        } else {
            // One line per distinct error, with how many questions it failed; an error already printed as it
            // happened is referred to, not repeated (an unreachable endpoint fails every question the same way).
            const byError = new Map<string, { model: string; error: string; ids: string[] }>();
            for (const f of failures) {
                const error = redact(f.error, secrets);
                const group = byError.get(`${f.model}\u0000${error}`) ?? { model: f.model, error, ids: [] };
                group.ids.push(f.question);
                byError.set(`${f.model}\u0000${error}`, group);
            }
            const groups = [...byError.values()];
            for (const g of groups.slice(0, 5)) {
                const which = g.ids.length === 1 ? g.ids[0]! : `${g.ids.length} questions`;
                printError(
                    `  failed: ${which} (${g.model}): ${streamed.has(`${g.model}: ${g.error}`) ? 'the error above' : g.error}`,
                );
            }
            if (groups.length > 5)
                printError(`  … and ${groups.length - 5} more kinds of failure (see ${cliCommand()} runs --format json)`);
            for (const line of summaryLines(runRecord, counts, result.progress?.elapsedMs ?? 0)) print(line);
            if (result.progress) for (const line of pacingLines(result.progress)) print(line);
            for (const line of replayLines(result.prepared.models)) print(line);
            if (result.verified)
                print(`  Verified ${counts.answered} answers; see them with: ${cliCommand()} report --db ${result.store}`);
            print(`  Results: ${result.store}`);
        }
        return result.status === 'completed' && counts.failed === 0 ? 0 : 1;
    },
};

async function ask(question: string): Promise<boolean> {
    if (!process.stdin.isTTY) return false;
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
        return /^y(es)?$/i.test((await rl.question(question)).trim());
    } finally {
        rl.close();
    }
}

function confirmer(yes: boolean): ConfirmHost {
    return async q => {
        if (yes) {
            printError(
                `halluprobe: sending the key from ${q.keyFrom} (bound to ${q.savedFor}) to ${q.host} for model ${q.model} (--yes)`,
            );
            return true;
        }
        return ask(`Send the key from ${q.keyFrom} (bound to ${q.savedFor}) to ${q.host} for model ${q.model}? [y/N] `);
    };
}

/** Runs `fn` with Ctrl-C / SIGTERM wired to cancellation (a second Ctrl-C exits at once). */
async function withSignals<T>(controller: AbortController, json: boolean, fn: () => Promise<T>): Promise<T> {
    const stop = () => {
        if (controller.signal.aborted) process.exit(130);
        if (!json) process.stderr.write('\nStopping: no new calls; answers received so far are saved.\n');
        controller.abort();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    try {
        return await fn();
    } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
    }
}

/** Progress on stderr: a redrawn bar on a terminal, one plain line per tenth of the run in logs. */
function progressDrawer(json: boolean): (p: Progress, final?: boolean) => void {
    const tty = process.stderr.isTTY && !json;
    let lastDraw = 0;
    let lastShare = -1;
    let lastHeld: string | undefined;
    let lastWaiting = '';
    return (p, final = false) => {
        if (json) return;
        const now = performance.now();
        // A refused write (a full disk) is said at once, on its own line, each time what is held changes.
        const held = heldLine(p);
        if (held !== lastHeld) {
            lastHeld = held;
            if (held) process.stderr.write(`${tty ? '\n' : ''}${held}\n`);
        }
        // A wait on the endpoint (a 429's Retry-After, its rate-limit window) is shown as it starts, in logs too.
        const waiting = waitingParts(p).join(' · ');
        const newWait = waiting !== lastWaiting && waiting !== '';
        lastWaiting = waiting;
        if (newWait && !tty) process.stderr.write(`${progressLine(p)}\n`);
        if (tty) {
            if (!final && !newWait && now - lastDraw < 100) return;
            lastDraw = now;
            process.stderr.write(`\r${progressBar(p)}\x1b[K${final ? '\n' : ''}`);
            return;
        }
        // While generating, the total grows: a line every few seconds instead of one per tenth.
        if (p.generating && !final) {
            if (now - lastDraw < 5000) return;
            lastDraw = now;
            process.stderr.write(`${progressLine(p)}\n`);
            return;
        }
        const share = p.total ? Math.floor((p.done / p.total) * 10) : 10;
        if (share === lastShare) return;
        lastShare = share;
        process.stderr.write(`${progressLine(p)}\n`);
    };
}
