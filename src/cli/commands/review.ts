import { writeFileSync } from 'node:fs';
import type { Command } from './command.js';
import { intFlag, stringFlag, UsageError, type ParsedArgs } from '../args.js';
import { openExisting, resolveRun } from './report.js';
import {
    claimKeys,
    corpusLines,
    defaultReviewer,
    importLabels,
    reviewSample,
    ReviewRound,
    REVIEW_KEYS,
    type ReviewAction,
    type ReviewItem,
} from '../../core/review/index.js';
import {
    outcomeText,
    readerVerdict,
    readSpans,
    readText,
    reviewEnd,
    reviewOpening,
    reviewStatus,
} from '../../core/report/index.js';
import { goldText } from '../../core/probes/index.js';
import type { Store } from '../../core/store/index.js';
import { problemText } from '../../core/errors.js';
import { print, printError } from '../print.js';

const FLAGS = [
    'db',
    'db-password-env',
    'run',
    'family',
    'probe',
    'model',
    'reviewer',
    'seed',
    'target',
    'n',
    'import',
    'export',
    'help',
];

/** The response with the span(s) the reader read marked ⟦…⟧ (print escapes model text for the terminal). */
function marked(item: ReviewItem): string {
    let out = item.response;
    for (const s of [...readSpans(item)].reverse())
        out = `${out.slice(0, s.start)}⟦${out.slice(s.start, s.end)}⟧${out.slice(s.end)}`;
    return out;
}

/** An open answer's claims as the data check read them, each with its digit and the mark given so far. */
function showClaims(item: ReviewItem, round: ReviewRound): void {
    for (const c of claimKeys(item)) print(`  ${c.key}  ${c.text} — ${round.claimMarks.get(c.index) ?? 'unmarked'}`);
}

function show(item: ReviewItem, at: number, of: number): void {
    const { question: q, verdict: v } = item;
    print('');
    print(`[${at}/${of}] ${item.stratum} — ${q.probe} · ${q.phrasing} — ${v.model} #${v.sample}`);
    print(`Question: ${q.question}`);
    print(`Gold:     ${goldText(q)}`);
    print(`Answer:   ${marked(item)}`);
    const read = readText(v);
    print(`Reader:   ${readerVerdict(item)}${read ? ` — ${read}` : ''}`);
}

export const review: Command = {
    summary: "Review a run's answers in the terminal (labels stored beside the verdicts); import or export labels.",
    options: FLAGS,
    usage: `halluprobe review [--db FILE|URL] [--run ID|latest] [--family KIND] [--probe NAME] [--model NAME] [--reviewer NAME] [--seed N] [--target X | --n N]
halluprobe review --import labels.csv [--db …] [--run …]
halluprobe review --export corpus.jsonl [--db …] [--run …]

Shows the run's answers one by one — a stratified sample (family × the reader's verdict × how it read the answer;
where the model reader and the patterns disagree first), the same for the same --seed (default 1), resuming after
what you labelled — with the span the reader read marked, and stores your label at once:
  a agree with the reader   p pass (the answer is right)   f fail (a wrong answer)   u unsure (cannot tell)
  r unreadable (no answer can be read)   s skip   z undo the last label   q quit          (then Enter)
An open answer's claims are listed with a digit each: 1…9 marks that claim supported, contradicted, unverifiable,
unmarked in turn; the marks are stored with the answer's label.
Ctrl-C stops the review; every label given is kept. The reader's agreement with your labels is shown as you go.
  --reviewer NAME   who labels (default: your user name); several reviewers label side by side
  --target X        label until the agreement is known to ±X (e.g. 0.05): says how many labels that needs
  --n N             label N answers
  --family KIND     only this family's answers (binary, choice, statement, …)
  --probe NAME      only this probe's answers (comma-separate several); --model NAME only this model's
  --import FILE     labels made elsewhere: CSV with columns question, model, sample, label (pass | fail | unsure |
                    unreadable), reviewer, and optionally rationale (yes | no); every bad row is reported, none stored
  --export FILE     the labelled answers as JSON lines (the reader's corpus format), for halluprobe reader-check
Exit: 0 done, 1 labels not imported, 2 bad usage, 130 stopped by Ctrl-C (labels kept).`,
    async run(args: ParsedArgs) {
        const target = stringFlag(args, 'target');
        const targetValue = target === undefined ? undefined : Math.abs(Number(target.replace(/^±/, '')));
        if (targetValue !== undefined && !(targetValue > 0 && targetValue < 1))
            throw new UsageError(`--target must be a half-width between 0 and 1 (e.g. 0.05), not "${target}".`);
        const n = intFlag(args, 'n');
        if (n !== undefined && targetValue !== undefined) throw new UsageError('give --target or --n, not both.');
        const store = await openExisting(args);
        try {
            const runId = await resolveRun(store, stringFlag(args, 'run'));
            const importFile = stringFlag(args, 'import');
            if (importFile !== undefined) {
                const { recorded, problems } = await importLabels(store, runId, importFile);
                for (const p of problems) printError(problemText(p));
                if (problems.length) {
                    printError(
                        `halluprobe review: no label imported (${problems.length} bad row${problems.length === 1 ? '' : 's'}).`,
                    );
                    return 1;
                }
                print(`Imported ${recorded} label${recorded === 1 ? '' : 's'} into run ${runId}.`);
                return 0;
            }
            const exportFile = stringFlag(args, 'export');
            if (exportFile !== undefined) {
                const results = (await store.loadRunResults(runId))!;
                const text = corpusLines(results, await store.labels(runId));
                writeFileSync(exportFile, text);
                print(`Wrote ${text.split('\n').filter(Boolean).length} labelled answers of run ${runId} to ${exportFile}.`);
                return 0;
            }
            if (!process.stdin.isTTY)
                throw new UsageError(
                    'review labels answers in a terminal; to add labels made elsewhere use --import labels.csv.',
                );
            const reviewer = stringFlag(args, 'reviewer') ?? defaultReviewer();
            const family = stringFlag(args, 'family');
            const probe = stringFlag(args, 'probe');
            const model = stringFlag(args, 'model');
            const session = await reviewSample(store, runId, {
                reviewer,
                seed: intFlag(args, 'seed') ?? 1,
                ...(n === undefined ? {} : { n }),
                ...(targetValue === undefined ? {} : { target: targetValue }),
                ...(family === undefined ? {} : { family }),
                ...(probe === undefined ? {} : { probes: probe.split(',').map(p => p.trim()) }),
                ...(model === undefined ? {} : { model }),
            });
            return await interactive(store, new ReviewRound(session, reviewer, targetValue));
        } finally {
            await store.close();
        }
    },
};

async function interactive(store: Store, round: ReviewRound): Promise<number> {
    const { expand } = await import('@inquirer/prompts');
    print(reviewOpening(round));
    // Ctrl-C while a label is being stored (no prompt open): the label is finished, then the review stops.
    let interrupted = false;
    const onSigint = () => {
        interrupted = true;
    };
    process.on('SIGINT', onSigint);
    const stopped = () => {
        print(`\nStopped: ${round.added} label${round.added === 1 ? '' : 's'} given now, every one kept. ${reviewStatus(round)}`);
        return 130;
    };
    try {
        for (let item = round.current, shown: ReviewItem | undefined; item; item = round.current) {
            if (interrupted) return stopped();
            if (item !== shown) show(item, round.position.at, round.position.of);
            shown = item;
            showClaims(item, round);
            const claims = claimKeys(item).map(c => ({ key: c.key, name: `mark claim ${c.key}`, value: c.value }));
            const key = await expand<ReviewAction>({ message: 'Label', choices: [...REVIEW_KEYS, ...claims], expanded: true });
            if (key === 'quit') break;
            const outcome = await round.act(store, key);
            if (outcome.kind !== 'skipped') print(outcomeText(outcome, round));
        }
    } catch (e) {
        if (e instanceof Error && e.name === 'ExitPromptError') return stopped();
        throw e;
    } finally {
        process.off('SIGINT', onSigint);
    }
    if (interrupted) return stopped();
    print(reviewEnd(round));
    return 0;
}
