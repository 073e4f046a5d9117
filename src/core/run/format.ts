/** Text for people: progress lines, the progress bar, cost forecasts and run summaries (pure; the CLI prints them). */
import type { CostForecast } from '../models/cost.js';
import type { RunCounts, RunRecord } from '../store/index.js';
import type { Progress } from './progress.js';
import type { PreparedRun } from './prepare.js';
import { cliCommand } from '../invocation.js';

/** Money text, the same in every face: `$0`, `$0.0042`, `$1.23`. */
export function usd(n: number): string {
    return n === 0 ? '$0' : n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
}

/** A cost that may be unknown (a model without a price): its money text, or `no price`. */
export function priceText(n: number | null | undefined): string {
    return n === null || n === undefined ? 'no price' : usd(n);
}

function duration(ms: number): string {
    const s = Math.round(ms / 1000);
    return s < 60
        ? `${s}s`
        : s < 3600
          ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
          : `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`;
}

/**
 * The store stopped taking writes: why, that no new calls are made, and how many answers wait in memory (undefined
 * while it takes them). The faces print it as soon as it changes.
 */
export function heldLine(p: Progress): string | undefined {
    if (p.storeProblem === undefined) return undefined;
    const held = p.held ?? 0;
    return (
        `The store stopped taking writes: ${p.storeProblem} No new questions are asked. ` +
        (held
            ? `${held} answer${held === 1 ? '' : 's'} already received ${held === 1 ? 'is' : 'are'} held in memory until ${held === 1 ? 'it' : 'they'} can be written (free some space, or bring the store's server back); Ctrl-C gives up and lists ${held === 1 ? 'it' : 'them'}.`
            : 'Every answer received is written.')
    );
}

/** One line: counts, tokens, cost, rate and (when it makes sense) the time left. */
export function progressLine(p: Progress): string {
    if (p.batches?.length) return `${batchStates(p.batches)} · ${plainLine(p)}`;
    return plainLine(p);
}

/**
 * A batch run's provider batches by state: "batches: 2 in_progress, 1 completed"; `counts` adds the requests
 * answered of those in progress, "2 in_progress (20/80)" (the editor's status, which has no other line for them).
 */
export function batchStates(batches: readonly { status: string; requests: number; done: number }[], counts = false): string {
    const by = new Map<string, { n: number; requests: number; done: number }>();
    for (const b of batches) {
        const s = by.get(b.status) ?? { n: 0, requests: 0, done: 0 };
        by.set(b.status, { n: s.n + 1, requests: s.requests + b.requests, done: s.done + b.done });
    }
    const shown = [...by].map(
        ([status, s]) => `${s.n} ${status}${counts && status === 'in_progress' ? ` (${s.done}/${s.requests})` : ''}`,
    );
    return `batches: ${shown.join(', ') || 'none yet'}`;
}

function plainLine(p: Progress): string {
    // While the questions are still being generated the total is only what has been generated so far.
    const parts = p.generating ? [`${p.done} done`, `generating… ${p.questions} questions so far`] : [`${p.done}/${p.total}`];
    if (p.cached) parts.push(`${p.cached} cached`);
    if (p.failed) parts.push(`${p.failed} failed`);
    if (p.resumed) parts.push(`${p.resumed} from before`);
    if (p.tokensIn + p.tokensOut) parts.push(`${p.tokensIn + p.tokensOut} tokens`);
    if (p.cost) parts.push(usd(p.cost));
    if (p.rate > 0) {
        parts.push(`${p.rate.toFixed(p.rate < 10 ? 1 : 0)}/s`);
        const left = p.total - p.done;
        if (left > 0 && !p.generating) parts.push(`~${duration((left / p.rate) * 1000)} left`);
    }
    parts.push(...waitingParts(p));
    return parts.join(' · ');
}

/** The models whose workers wait on their endpoint, and until when: "waiting on mini's rate-limit window until 19:25:03 UTC". */
export function waitingParts(p: Pick<Progress, 'pacing'>): string[] {
    return Object.entries(p.pacing ?? {}).flatMap(([model, s]) => {
        if (!s.waiting) return [];
        const on = s.waiting.on === 'retry-after' ? 'the Retry-After of a 429 from' : 'the rate-limit window of';
        return [`waiting on ${on} ${model} until ${new Date(s.waiting.until).toISOString().slice(11, 19)} UTC`];
    });
}

export function progressBar(p: Progress, width = 28): string {
    if (p.generating) return `[${'~'.repeat(width)}]    … ${progressLine(p)}`;
    const share = p.total ? p.done / p.total : 1;
    const filled = Math.round(share * width);
    return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(share * 100)).padStart(3)}% ${progressLine(p)}`;
}

/** What a prepared run will ask: its questions (or that they are generated as it goes), models and cost forecast. */
export function preparedLines(prepared: PreparedRun, specName: string): string[] {
    const { run, questionCount, models, todo } = prepared;
    const what = questionCount === undefined ? 'questions generated as the run goes' : `${questionCount} questions`;
    const lines = [
        `${prepared.resumed ? 'Resuming' : 'Starting'} run ${run.id} of ${specName}${run.suite ? ` suite ${run.suite}` : ''}: ${what} × ${models.map(m => m.client.displayName).join(', ')}`,
    ];
    if (questionCount !== undefined && todo !== undefined)
        lines.push(...forecastLines(prepared.forecasts, todo, questionCount * models.reduce((n, m) => n + m.model.samples, 0)));
    return lines;
}

export function forecastLines(forecasts: CostForecast[], todo: number, total: number): string[] {
    const lines = [`${todo} of ${total} answers to get${total > todo ? ` (${total - todo} already in this run)` : ''}.`];
    for (const e of forecasts) {
        if (e.requests === 0) continue;
        const cost =
            e.usd === undefined
                ? 'price unknown (set price_input / price_output)'
                : `about ${usd(e.usd)}${e.batch ? ' at the batch price' : ''}`;
        lines.push(
            `  ${e.model}: ${e.requests} requests, ~${e.inputTokens} input + ~${e.outputTokens} output tokens (output ${e.outputFrom === 'cache' ? 'from past answers' : e.outputFrom === 'setting' ? 'from the model setting' : 'guessed'}), ${cost}`,
        );
    }
    return lines;
}

export function summaryLines(run: RunRecord, counts: RunCounts, elapsedMs?: number): string[] {
    const models = (run.settings.models ?? []).map(m => m.display ?? m.name);
    const lines = [
        `Run ${run.id} ${run.status}${elapsedMs === undefined ? '' : ` in ${duration(elapsedMs)}`}${models.length ? ` — ${models.join(', ')}` : ''}.`,
        `  ${counts.questions} questions, ${counts.answered} answers (${counts.cached} from the cache), ${counts.failed} failed.`,
        `  ${counts.calls} model calls, ${counts.tokensIn} input + ${counts.tokensOut} output tokens, ${usd(counts.cost)}.`,
    ];
    if (run.status === 'cancelled' || counts.failed > 0)
        lines.push(`  Continue it with: ${cliCommand()} run ${run.spec} --resume ${run.id}`);
    return lines;
}

/** Per replayed model: how many recorded answers matched no question of this run (issue 36 item 11: none silently unused). */
export function replayLines(
    models: readonly { model: { name: string }; client: { unmatched?(): { unmatched: number; records: number } } }[],
): string[] {
    return models.flatMap(m => {
        const u = m.client.unmatched?.();
        return u && u.unmatched > 0
            ? [`  ${m.model.name} (replay): ${u.unmatched} of ${u.records} recorded answers matched no question of this run.`]
            : [];
    });
}

/** Per model with an endpoint: how it was paced — requests, 429s, time paused, tokens/min against the endpoint's limit. */
export function pacingLines(p: Progress): string[] {
    const lines: string[] = [];
    for (const [model, s] of Object.entries(p.pacing ?? {})) {
        if (s.mode === 'fixed' && s.rateLimited === 0) continue;
        const perMinute = s.activeMs > 0 ? (s.tokens * 60_000) / s.activeMs : 0;
        const limit = s.limitTokensPerMinute;
        const share = s.requests ? ` (${((100 * s.rateLimited) / s.requests).toFixed(1)} %)` : '';
        const against = limit
            ? ` of the endpoint's ${Math.round(limit)} (${Math.round((100 * perMinute) / limit)} %)`
            : s.mode === 'aimd'
              ? ' (the endpoint sends no limits: paced by its 429s)'
              : '';
        lines.push(
            `  ${model}: ${s.requests} requests, ${s.rateLimited} answered 429${share}, paused ${(s.pausedMs / 1000).toFixed(1)} s, ${Math.round(perMinute)} tokens/min${against}.`,
        );
    }
    return lines;
}
