import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { Command } from './command.js';
import { intFlag, stringFlag, UsageError, type ParsedArgs } from '../args.js';
import { openExisting, resolveRun } from './report.js';
import { agreementOf, corpusLines, importLabels, labelsNeeded, recordReviewLabel, reviewSample, readerClass, type ReviewItem } from '../../core/review/index.js';
import { agreementText, readText } from '../../core/report/index.js';
import { goldText } from '../../core/probes/index.js';
import type { ReviewLabel } from '../../core/store/index.js';
import { problemText } from '../../core/errors.js';
import { print, printError } from '../print.js';

const FLAGS = ['db', 'db-password-env', 'run', 'family', 'reviewer', 'seed', 'target', 'n', 'import', 'export', 'help'];

type Key = 'agree' | ReviewLabel['label'] | 'skip' | 'undo' | 'quit';

/** The keys, as the prompt lists them (h is the prompt's own help). */
const KEYS: { key: 'a' | 'p' | 'f' | 'u' | 'r' | 's' | 'z' | 'q'; name: string; value: Key }[] = [
    { key: 'a', name: 'agree with the reader', value: 'agree' },
    { key: 'p', name: 'pass: the answer is right', value: 'pass' },
    { key: 'f', name: 'fail: it states a wrong answer', value: 'fail' },
    { key: 'u', name: 'unsure: I cannot tell', value: 'unsure' },
    { key: 'r', name: 'unreadable: no answer can be read from it', value: 'unreadable' },
    { key: 's', name: 'skip', value: 'skip' },
    { key: 'z', name: 'undo the last label', value: 'undo' },
    { key: 'q', name: 'quit (every label is kept)', value: 'quit' },
];

/** The response with the span the reader read marked ⟦…⟧ (print escapes model text for the terminal). */
function marked(response: string, span: [number, number] | undefined): string {
    if (!span || span[1] <= span[0]) return response;
    return `${response.slice(0, span[0])}⟦${response.slice(span[0], span[1])}⟧${response.slice(span[1])}`;
}

function show(item: ReviewItem, at: number, of: number): void {
    const { question: q, verdict: v } = item;
    print('');
    print(`[${at}/${of}] ${item.stratum} — ${q.probe} · ${q.phrasing} — ${v.model} #${v.sample}`);
    print(`Question: ${q.question}`);
    print(`Gold:     ${goldText(q)}`);
    print(`Answer:   ${marked(item.response, v.read?.span ?? v.modelRead?.span)}`);
    const read = readText(v);
    print(`Reader:   ${readerClass(v, true)} (answer ${v.answer})${read ? ` — ${read}` : ''}`);
}

export const review: Command = {
    summary: 'Review a run\'s answers in the terminal (labels stored beside the verdicts); import or export labels.',
    options: FLAGS,
    usage: `halluprobe review [--db FILE|URL] [--run ID|latest] [--family KIND] [--reviewer NAME] [--seed N] [--target X | --n N]
halluprobe review --import labels.csv [--db …] [--run …]
halluprobe review --export corpus.jsonl [--db …] [--run …]

Shows the run's answers one by one — a stratified sample (family × the reader's verdict × how it read the answer;
where the model reader and the patterns disagree first), the same for the same --seed (default 1), resuming after
what you labelled — with the span the reader read marked, and stores your label at once:
  a agree with the reader   p pass (the answer is right)   f fail (a wrong answer)   u unsure (cannot tell)
  r unreadable (no answer can be read)   s skip   z undo the last label   q quit          (then Enter)
Ctrl-C stops the review; every label given is kept. The reader's agreement with your labels is shown as you go.
  --reviewer NAME   who labels (default: your user name); several reviewers label side by side
  --target X        label until the agreement is known to ±X (e.g. 0.05): says how many labels that needs
  --n N             label N answers
  --family KIND     only this family's answers (binary, choice, statement, …)
  --import FILE     labels made elsewhere: CSV with columns question, model, sample, label (pass | fail | unsure |
                    unreadable), reviewer, and optionally rationale (yes | no); every bad row is reported, none stored
  --export FILE     the labelled answers as JSON lines (the reader's corpus format), for halluprobe reader-check
Exit: 0 done, 1 labels not imported, 2 bad usage, 130 stopped by Ctrl-C (labels kept).`,
    async run(args: ParsedArgs) {
        const target = stringFlag(args, 'target');
        const targetValue = target === undefined ? undefined : Math.abs(Number(target.replace(/^±/, '')));
        if (targetValue !== undefined && !(targetValue > 0 && targetValue < 1)) throw new UsageError(`--target must be a half-width between 0 and 1 (e.g. 0.05), not "${target}".`);
        const n = intFlag(args, 'n');
        if (n !== undefined && targetValue !== undefined) throw new UsageError('give --target or --n, not both.');
        const store = await openExisting(args);
        try {
            const runId = await resolveRun(store, stringFlag(args, 'run'));
            const importFile = stringFlag(args, 'import');
            if (importFile !== undefined) {
                const { recorded, problems } = await importLabels(store, runId, importFile);
                for (const p of problems) printError(problemText(p));
                if (problems.length) { printError(`halluprobe review: no label imported (${problems.length} bad row${problems.length === 1 ? '' : 's'}).`); return 1; }
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
            if (!process.stdin.isTTY) throw new UsageError('review labels answers in a terminal; to add labels made elsewhere use --import labels.csv.');
            const reviewer = stringFlag(args, 'reviewer') ?? (process.env.USER || userInfo().username);
            const family = stringFlag(args, 'family');
            const session = await reviewSample(store, runId, { reviewer, seed: intFlag(args, 'seed') ?? 1, ...(n === undefined ? {} : { n }), ...(targetValue === undefined ? {} : { target: targetValue }), ...(family === undefined ? {} : { family }) });
            return await interactive(store, runId, reviewer, session, targetValue);
        } finally {
            await store.close();
        }
    },
};

async function interactive(store: Parameters<typeof recordReviewLabel>[0], runId: string, reviewer: string, session: Awaited<ReturnType<typeof reviewSample>>, target: number | undefined): Promise<number> {
    const { expand } = await import('@inquirer/prompts');
    const mine = new Map(session.labels.filter(l => l.reviewer === reviewer).map(l => [`${l.questionId}\u0000${l.model}\u0000${l.sample}`, l.label]));
    const judged = session.items.filter(i => mine.has(`${i.verdict.questionId}\u0000${i.verdict.model}\u0000${i.verdict.sample}`)).map(i => ({ item: i, label: mine.get(`${i.verdict.questionId}\u0000${i.verdict.model}\u0000${i.verdict.sample}`)! }));
    const status = () => {
        const f = agreementOf(judged.map(j => ({ verdict: j.item.verdict, label: j.label })));
        const more = target === undefined ? '' : `; ${labelsNeeded(f.k, f.n, target)} more for ±${target}`;
        return `Reader agrees ${agreementText(f)}${more}.`;
    };
    print(`Reviewing run ${runId} as ${reviewer}: ${session.labelled} labelled before, ${session.next.length} to go (${session.total} answers in all).${target === undefined ? '' : ` ±${target} needs ${session.needed} more.`}`);
    const queue = [...session.next];
    const done: ReviewItem[] = [];
    let added = 0;
    // Ctrl-C while a label is being stored (no prompt open): the label is finished, then the review stops.
    let interrupted = false;
    const onSigint = () => { interrupted = true; };
    process.on('SIGINT', onSigint);
    const stopped = () => { print(`\nStopped: ${added} label${added === 1 ? '' : 's'} given now, every one kept. ${status()}`); return 130; };
    try {
        while (queue.length) {
            if (interrupted) return stopped();
            const item = queue[0]!;
            show(item, done.length + 1, done.length + queue.length);
            const key = await expand<Key>({ message: 'Label', choices: KEYS, expanded: true });
            if (key === 'quit') break;
            if (key === 'undo') {
                const last = done.pop();
                if (!last) { print('Nothing to undo.'); continue; }
                await store.removeLabel(runId, last.verdict.questionId, last.verdict.model, last.verdict.sample, reviewer);
                const at = judged.findIndex(j => j.item === last);
                if (at >= 0) { judged.splice(at, 1); added--; }
                queue.unshift(last);
                print(`Undone: ${last.question.id} is unlabelled again.`);
                continue;
            }
            queue.shift();
            done.push(item);
            if (key === 'skip') continue;
            const l = await recordReviewLabel(store, runId, item, reviewer, key);
            judged.push({ item, label: l.label });
            added++;
            print(`Labelled ${l.label}. ${status()}`);
        }
    } catch (e) {
        if (e instanceof Error && e.name === 'ExitPromptError') return stopped();
        throw e;
    } finally {
        process.off('SIGINT', onSigint);
    }
    if (interrupted) return stopped();
    print(`Done: ${added} label${added === 1 ? '' : 's'} given now. ${status()}`);
    return 0;
}
