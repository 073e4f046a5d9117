import { existsSync, writeFileSync } from 'node:fs';
import { storePath } from '../../core/places.js';
import type { Command } from './command.js';
import { intFlag, stringFlag, UsageError, type ParsedArgs, unknownOption } from '../args.js';
import { isPostgresUrl, openStore, type Store } from '../../core/store/index.js';
import {
    FACT_FORMATS,
    loadReport,
    failedRows,
    renderFacts,
    renderReport,
    resolveRunId,
    REPORT_FORMATS,
    type ReportData,
    type ReportFormat,
} from '../../core/report/index.js';
import { HalluProbeError, problemText } from '../../core/errors.js';
import { overriddenRead } from '../../core/verify/index.js';
import { fileKeyBindings } from '../../core/models/index.js';
import { printError, writeOut } from '../print.js';
import { agreementGate, groupKey, groupLabel } from '../../core/report/index.js';
import { cliCommand } from '../../core/invocation.js';

const FLAGS = new Set([
    'db',
    'db-password-env',
    'run',
    'format',
    'out',
    'help',
    'fail-on-failures',
    'max-h',
    'override',
    'model',
    'sample',
    'correct',
    'rationale',
    'by',
    'why',
    'min-known',
    'judge',
    'judge-sample',
    'judge-seed',
    'yes',
    'min-agreement',
    'facts',
    'fact',
]);

function defaultDb(args: ParsedArgs): string {
    return storePath(stringFlag(args, 'db'));
}

/**
 * Opens the store named by --db: a file (a missing one is a usage error: never create an empty store to report on)
 * or a postgres:// URL (its password from --db-password-env's variable, PGPASSWORD or ~/.pgpass).
 */
export async function openExisting(args: ParsedArgs): Promise<Store> {
    const where = defaultDb(args);
    if (!isPostgresUrl(where) && !existsSync(where)) {
        throw new UsageError(
            `no results store at ${where}; run "${cliCommand()} run <spec.probe>" first, or pass --db FILE or --db postgres://user@host/db (the run command keeps it beside the spec: <spec folder>/.halluprobe/results.db).`,
        );
    }
    return openStore(where, { passwordEnv: stringFlag(args, 'db-password-env') });
}

/** Resolves "latest" (or no --run) and checks the run exists (the engine's rule, as a usage error here). */
export async function resolveRun(store: Store, id: string | undefined): Promise<string> {
    try {
        return await resolveRunId(store, id);
    } catch (e) {
        if (e instanceof HalluProbeError)
            throw new UsageError(e.problems.map(p => `${p.message}${p.remedy ? ` ${p.remedy}` : ''}`).join(' '));
        throw e;
    }
}

function yesNo(args: ParsedArgs, name: string): boolean | undefined {
    const v = stringFlag(args, name);
    if (v === undefined) return undefined;
    if (/^(yes|true|right|1)$/i.test(v)) return true;
    if (/^(no|false|wrong|0)$/i.test(v)) return false;
    throw new UsageError(`--${name} must be yes or no, not "${v}".`);
}

export const report: Command = {
    summary: "Report a run's verdicts and metrics (md, html, json, csv, jsonl, junit); record overrides.",
    options: [...FLAGS],
    usage: `halluprobe report [--db FILE|URL] [--run ID|latest] [--format md|html|json|csv|jsonl|junit|erbench] [--out FILE]

Verifies any unverified answers, then writes the report (default: Markdown to stdout).
  --db FILE|URL          the results store: a file (default: .halluprobe/results.db in the current directory)
                         or postgres://user@host/db (password from PGPASSWORD or ~/.pgpass, never in the URL)
  --db-password-env VAR  a PostgreSQL store's password is in the environment variable VAR
  --run ID|latest        which run (default: latest)
  --format F             md (default), html (one self-contained file with charts), json (metrics per group),
                         csv (metrics per group), jsonl (one line per question with its verdict and evidence),
                         junit (one test case per question, for CI), erbench (the ERBench paper's table layout:
                         a row per model, BN(Y) / BN(N) / MC columns, cells A / R / AR / H; paths A / R-ext /
                         AR-ext per hop / H; one table per evaluation mode and prompt variant)
  --facts                only the run's facts (docs/facts.md): each fact's verdict per model with every family's
                         answer beside it, the classes' shares, the family pairs' agreement (md, html, json, csv)
  --fact SELECTOR        with --facts: one fact, by id, label or key.attribute (--fact "Avatar.director")
  --out FILE             write to FILE instead of stdout
  --min-known N          knowledge filter: a model knowing fewer entities is n/a (default 20)
  --fail-on-failures     exit 1 when any question failed (wrong answer or rationale)
  --min-agreement X      exit 1 when the reader agrees with the review labels less than X (e.g. 0.95) in some
                         group, naming the families below it, or when nobody reviewed the run (halluprobe review)
  --max-h X              exit 1 when any group's hallucination rate H exceeds X (e.g. 0.2); scoped limits, comma-
                         separated, take a probe, a phrasing or probe/phrasing before "=": --max-h 0.2,open/rewire-50=1
                         (the most specific limit applies; without a plain X, groups no scope names are not gated)
  --judge MODEL          opt-in LLM judge (e.g. openai:gpt-4o) on a sample of verdicts: its agreement with
                         the verifier and Cohen's kappa are added, labelled "LLM judge"
  --judge-sample N       how many verdicts the judge reads (default 50); --judge-seed K the sample's seed
  --yes                  send the judge's (and extract_with / embeddings models') key to its host without asking
Override a verdict (stored with who, when and why; metrics are recomputed):
  --override QUESTION_ID [--model M] [--sample N] [--correct yes|no] [--rationale yes|no] --why TEXT [--by NAME]
Exit: 0 written, 1 a --fail-on-failures / --max-h / --min-agreement gate failed, 2 bad usage.`,
    async run(args: ParsedArgs) {
        const format = (stringFlag(args, 'format') ?? 'md') as ReportFormat;
        const maxH = stringFlag(args, 'max-h');
        const minAgreementText = stringFlag(args, 'min-agreement');
        const minAgreement = minAgreementText === undefined ? undefined : Number(minAgreementText);
        const unknown = unknownOption(args, FLAGS);
        const problem = unknown
            ? unknown
            : !REPORT_FORMATS.includes(format)
              ? `--format must be one of ${REPORT_FORMATS.join(', ')}, not "${String(args.flags.format)}"`
              : maxH !== undefined && typeof parseMaxH(maxH) === 'string'
                ? (parseMaxH(maxH) as string)
                : minAgreement !== undefined && !(minAgreement >= 0 && minAgreement <= 1)
                  ? `--min-agreement must be a share between 0 and 1, not "${minAgreementText}"`
                  : args.flags.fact !== undefined && args.flags.facts !== true
                    ? '--fact needs --facts'
                    : args.flags.facts === true && !FACT_FORMATS.includes(format)
                      ? `--facts writes ${FACT_FORMATS.join(', ')}, not "${format}"`
                      : args.positional.length > 0
                        ? `unexpected argument "${args.positional[0]}"`
                        : undefined;
        if (problem) {
            printError(`halluprobe report: ${problem}\n\n${this.usage}`);
            return 2;
        }
        const store = await openExisting(args);
        try {
            const runId = await resolveRun(store, stringFlag(args, 'run'));
            const target = stringFlag(args, 'override');
            if (target !== undefined) await recordFromFlags(store, runId, target, args);
            const judgeModel = stringFlag(args, 'judge');
            const yes = args.flags.yes === true;
            const judge =
                judgeModel === undefined
                    ? undefined
                    : {
                          model: judgeModel,
                          sample: intFlag(args, 'judge-sample') ?? 50,
                          seed: intFlag(args, 'judge-seed') ?? 1,
                          confirmHost: async () => yes,
                          bindings: fileKeyBindings(),
                      };
            const minKnown = intFlag(args, 'min-known');
            // Model steps of the families (rule: extract_with, embeddings) send keys as the judge does: --yes confirms a host.
            const keys = { confirmHost: async () => yes, bindings: fileKeyBindings() };
            const { data, problems } = await loadReport(store, runId, {
                keys,
                ...(minKnown === undefined ? {} : { minKnown }),
                ...(judge ? { judge } : {}),
            });
            for (const p of problems) printError(`halluprobe report: ${problemText(p)}`);
            const selector = stringFlag(args, 'fact');
            const text =
                args.flags.facts === true
                    ? renderFacts(data, format, selector === undefined ? [] : [selector])
                    : renderReport(data, format);
            const out = stringFlag(args, 'out');
            if (out) {
                writeFileSync(out, text);
                printError(`Wrote ${format} report of run ${runId} to ${out}`);
            } else writeOut(text);
            const code = gate(
                data,
                args.flags['fail-on-failures'] === true,
                maxH === undefined ? undefined : (parseMaxH(maxH) as HLimit[]),
            );
            const below = minAgreement === undefined ? [] : agreementGate(data.trust, minAgreement);
            for (const line of below) printError(`halluprobe report: ${line}.`);
            return below.length ? 1 : code;
        } finally {
            await store.close();
        }
    },
};

async function recordFromFlags(store: Store, runId: string, questionId: string, args: ParsedArgs): Promise<void> {
    const why = stringFlag(args, 'why');
    if (!why) throw new UsageError('--override needs --why "the reason" (overrides are reported with their reason).');
    const correct = yesNo(args, 'correct');
    const rationale = yesNo(args, 'rationale');
    if (correct === undefined && rationale === undefined)
        throw new UsageError('--override needs --correct yes|no and/or --rationale yes|no.');
    const results = (await store.loadRunResults(runId))!;
    const model = stringFlag(args, 'model');
    const sample = intFlag(args, 'sample') ?? 0;
    const matches = results.answers.filter(
        a => a.questionId === questionId && a.sample === sample && (model === undefined || a.model === model),
    );
    if (matches.length === 0)
        throw new UsageError(
            `no answer to question "${questionId}"${model ? ` by ${model}` : ''} (sample ${sample}) in run ${runId}.`,
        );
    if (matches.length > 1)
        throw new UsageError(
            `question "${questionId}" was answered by ${matches.map(m => m.model).join(', ')}; say which with --model.`,
        );
    const by = stringFlag(args, 'by') ?? process.env.USER ?? 'unknown';
    // The override keeps what the verdict had read as the answer, so it still says what it overrode after a re-read.
    const verdict = results.verdicts.find(
        v => v.questionId === questionId && v.model === matches[0]!.model && v.sample === sample,
    );
    const read = verdict && overriddenRead(verdict);
    const o = {
        run: runId,
        questionId,
        model: matches[0]!.model,
        sample,
        by,
        why,
        ...(correct === undefined ? {} : { correct }),
        ...(rationale === undefined ? {} : { rationale }),
        ...(read ? { read } : {}),
    };
    await store.recordOverride(o);
    printError(`Recorded override of ${questionId} (${o.model}) by ${by}.`);
}

/** One --max-h limit: for every group (no scope), or for a probe, a phrasing or probe/phrasing. */
export interface HLimit {
    scope?: string;
    max: number;
}

/** `0.2,open/rewire-50=1` → limits, or the problem with the flag's value. */
export function parseMaxH(text: string): HLimit[] | string {
    const limits: HLimit[] = [];
    for (const part of text
        .split(',')
        .map(p => p.trim())
        .filter(Boolean)) {
        const eq = part.lastIndexOf('=');
        const scope = eq >= 0 ? part.slice(0, eq).trim() : undefined;
        const value = eq >= 0 ? part.slice(eq + 1).trim() : part;
        const max = Number(value);
        if (value === '' || !(max >= 0 && max <= 1))
            return `--max-h must be a number between 0 and 1 (or SCOPE=number), not "${part}"`;
        if (scope === '') return `--max-h: "${part}" names no probe or phrasing before "="`;
        limits.push(scope === undefined ? { max } : { scope, max });
    }
    return limits.length ? limits : `--max-h needs a number between 0 and 1, not "${text}"`;
}

/** The limit for a group: probe/phrasing, then phrasing, then probe, then the plain one; undefined: not gated. */
export function limitFor(limits: readonly HLimit[], g: { probe: string; phrasing: string }): number | undefined {
    for (const scope of [`${g.probe}/${g.phrasing}`, g.phrasing, g.probe, undefined]) {
        const hit = limits.find(l => l.scope === scope);
        if (hit) return hit.max;
    }
    return undefined;
}

function gate(data: ReportData, failOnFailures: boolean, maxH: readonly HLimit[] | undefined): number {
    let code = 0;
    if (failOnFailures) {
        const failed = failedRows(data.rows);
        if (failed > 0) {
            printError(`halluprobe report: ${failed} of ${data.rows.length} questions failed.`);
            code = 1;
        }
    }
    if (maxH !== undefined) {
        for (const g of data.metrics) {
            const max = limitFor(maxH, g);
            if (max === undefined || g.na || g.H === null || g.H <= max) continue;
            printError(`halluprobe report: H ${g.H.toFixed(2)} > ${max} for ${groupLabel(groupKey(g))}.`);
            code = 1;
        }
    }
    return code;
}
