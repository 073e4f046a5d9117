/**
 * A review as the faces show it, from the review room's round (src/core/review/round.ts): the item (question, gold, the
 * data rows, the response with the span the reader read, the reader's verdict, what it read and why), the progress,
 * the reader's running agreement, and what the last key did — the same words in the terminal (`halluprobe review`)
 * and the editor's Review Answers panel (as `ReviewView`, protocol/webview.ts). Nothing is counted by a face.
 */
import * as path from 'node:path';
import type { ReviewView, ReviewItemView, ReviewActionName } from '../../protocol/webview.js';
import { goldText } from '../probes/question.js';
import { REVIEW_KEYS, claimKeys, type ReviewOutcome, type ReviewRound } from '../review/round.js';
import type { ReviewItem } from '../review/sample.js';
import { slotOf } from '../review/sample.js';
import { readerClass } from '../review/strata.js';
import { explainVerdict, readText } from './model.js';
import { agreementText } from './trust.js';

/** "Reader agrees 0.80 [0.38, 0.96] on 5 reviewed; 40 more for ±0.05." */
export function reviewStatus(round: ReviewRound): string {
    const needed = round.needed();
    return `Reader agrees ${agreementText(round.agreement())}${needed === undefined ? '' : `; ${needed} more for ±${round.target}`}.`;
}

/** The first line of a review: whose, how much was labelled before, how much is left. */
export function reviewOpening(round: ReviewRound): string {
    const s = round.session;
    return `Reviewing run ${s.runId} as ${round.reviewer}: ${s.labelled} labelled before, ${s.next.length} to go (${s.total} answers in all).${s.needed === undefined ? '' : ` ±${round.target} needs ${s.needed} more.`}`;
}

/** The reader's verdict in a label's words, and the answer it read: "fail (answer no)". */
export function readerVerdict(item: ReviewItem): string {
    return `${readerClass(item.verdict, true)} (answer ${item.verdict.answer})`;
}

/**
 * What a key did, in words; the reader's verdict is named once the person has labelled. `status`: the running
 * agreement after a label (the terminal's line; the panel shows it above already).
 */
export function outcomeText(o: ReviewOutcome, round: ReviewRound, status = true): string {
    switch (o.kind) {
        case 'labelled': {
            const reader = readerClass(o.item.verdict, true);
            const said =
                o.label.label === 'unsure'
                    ? ''
                    : ` The reader read it as ${reader}: ${reader === o.label.label ? 'you agree' : 'you disagree'}.`;
            const claims = o.label.claims?.length
                ? ` Claims marked: ${o.label.claims.map(c => `${c.index + 1} ${c.status}`).join(', ')}.`
                : '';
            return `Labelled ${o.label.label}.${claims}${said}${status ? ` ${reviewStatus(round)}` : ''}`;
        }
        case 'claim-marked':
            return `Claim ${o.claim + 1} ${o.status ? `marked ${o.status}` : 'unmarked'} (stored with the label).`;
        case 'no-claim':
            return `This answer has no claim ${o.claim + 1}.`;
        case 'skipped':
            return `Skipped ${o.item.question.id}.`;
        case 'undone':
            return `Undone: ${o.item.question.id} is unlabelled again.`;
        case 'nothing-to-undo':
            return 'Nothing to undo.';
        case 'stale':
            return 'That answer was dealt with already; nothing was stored.';
        case 'quit':
        case 'finished':
            return reviewEnd(round);
    }
}

/** The closing line: labels given now and the agreement. */
export function reviewEnd(round: ReviewRound): string {
    return `Done: ${round.added} label${round.added === 1 ? '' : 's'} given now. ${reviewStatus(round)}`;
}

/** The span(s) of the response the reader read as the answer (the pattern reader's, else the model reader's). */
export function readSpans(item: ReviewItem): { start: number; end: number; title: string }[] {
    const v = item.verdict;
    const span = v.read?.span ?? v.modelRead?.span;
    if (!span || span[1] <= span[0] || span[1] > item.response.length) return [];
    return [{ start: span[0], end: span[1], title: v.read?.why ?? `read by ${v.modelRead?.model ?? 'the reader'}` }];
}

function itemView(round: ReviewRound, item: ReviewItem): ReviewItemView {
    const { question: q, verdict: v } = item;
    const { at, of } = round.position;
    const claims = claimKeys(item).map(c => ({
        key: c.key,
        text: c.text,
        mark: round.claimMarks.get(c.index) ?? 'unmarked',
        action: c.value,
    }));
    return {
        slot: slotOf(v),
        // The stratum names the reader's class: it waits with the verdict (reader.how), so the header names the family only.
        header: `${at} of ${of} · ${q.kind}`,
        where: `${q.probe} · ${q.phrasing} · ${v.model} #${v.sample}`,
        question: q.question,
        gold: goldText(q),
        rows: q.source.rows.map(r => ({
            label: `${r.relation}(${r.key.join(', ')}) · ${path.basename(r.file)}:${r.line}`,
            file: r.file,
            line: r.line,
        })),
        answer: { text: item.response, spans: readSpans(item) },
        reader: {
            verdict: readerVerdict(item),
            stratum: item.stratum,
            read: readText(v),
            explanation: explainVerdict(q, v, item.response),
        },
        ...(claims.length ? { claims } : {}),
    };
}

const PANEL_KEYS = REVIEW_KEYS.filter((k): k is typeof k & { value: ReviewActionName } => k.value !== 'quit');

/** The Review Answers panel's data after a key (`last`: what it did), or at the start. */
export function reviewView(round: ReviewRound, last?: ReviewOutcome): ReviewView {
    const f = round.agreement();
    const item = round.current;
    const view: ReviewView = {
        title: `Review Answers — run ${round.runId}`,
        run: round.runId,
        reviewer: round.reviewer,
        progress: `${item ? `${round.position.at} of ${round.position.of} to label` : 'nothing left to label'} · ${round.added} labelled now, ${round.labelled} by ${round.reviewer} in all (${round.session.total} answers)`,
        agreement: { text: reviewStatus(round), k: f.k, n: f.n, value: f.value, ci: f.ci },
        keys: PANEL_KEYS.map(k => ({ key: k.key, name: k.name, action: k.value })),
    };
    if (item) view.item = itemView(round, item);
    else view.end = reviewEnd(round);
    if (last && last.kind !== 'finished' && last.kind !== 'quit') view.last = outcomeText(last, round, false);
    return view;
}
