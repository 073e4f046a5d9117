/**
 * One reviewer's pass through a review sample, the same for every face (the terminal's `halluprobe review` and the
 * editor's Review Answers panel): the item shown now, a key's action on it (a label stored at once with what the
 * reader had read, skip, undo the last label), the progress, and the reader's running agreement with this reviewer's
 * labels. The faces only show `current` and pass the key the person pressed. An open answer's claims (the data check's,
 * in the order read) are marked by a digit each — supported, contradicted, unverifiable, unmarked in turn — and the
 * marks are stored with the answer's label.
 */
import { userInfo } from 'node:os';
import type { ReviewLabel, ReviewLabelValue, Store } from '../store/types.js';
import type { Figure } from '../verify/figures.js';
import { agreementOf, labelsNeeded, slotOf, type ReviewItem } from './sample.js';
import { recordReviewLabel, type ReviewSession } from './step.js';

/** Who labels when nobody is named: the user's login name (the terminal's and the editor's default alike). */
export function defaultReviewer(): string {
    return process.env.USER || userInfo().username;
}

/** `claim-N`: mark the current answer's Nth claim (1–9, as the data check read them) with the next status. */
export type ClaimAction = `claim-${number}`;
export type ReviewAction = 'agree' | ReviewLabelValue | 'skip' | 'undo' | 'quit' | ClaimAction;
export type ClaimStatus = NonNullable<ReviewLabel['claims']>[number]['status'];

/** A claim's mark, pressed again and again: the data check's statuses in turn, then unmarked. */
const CLAIM_MARKS: readonly ClaimStatus[] = ['supported', 'contradicted', 'unverifiable'];

/** The claims a reviewer can mark by key: the first nine the data check read. */
const MARKABLE_CLAIMS = 9;

type ClaimKey = '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';

/** The claim keys of an item ("1" … "9", one per claim the data check read), with the claim's words. */
export function claimKeys(item: ReviewItem): { key: ClaimKey; index: number; text: string; value: ClaimAction }[] {
    return (item.verdict.claims ?? []).slice(0, MARKABLE_CLAIMS).map((c, i) => ({
        key: String(i + 1) as ClaimKey,
        index: i,
        text: c.text ?? `claim ${i + 1}`,
        value: `claim-${i + 1}` as ClaimAction,
    }));
}

const isClaimAction = (a: string): a is ClaimAction => /^claim-[1-9]$/.test(a);

/** The keys of a review, as every face takes them (the terminal adds Enter; the panel takes the key alone). */
export const REVIEW_KEYS: readonly { key: 'a' | 'p' | 'f' | 'u' | 'r' | 's' | 'z' | 'q'; name: string; value: ReviewAction }[] = [
    { key: 'a', name: 'agree with the reader', value: 'agree' },
    { key: 'p', name: 'pass: the answer is right', value: 'pass' },
    { key: 'f', name: 'fail: it states a wrong answer', value: 'fail' },
    { key: 'u', name: 'unsure: I cannot tell', value: 'unsure' },
    { key: 'r', name: 'unreadable: no answer can be read from it', value: 'unreadable' },
    { key: 's', name: 'skip', value: 'skip' },
    { key: 'z', name: 'undo the last label', value: 'undo' },
    { key: 'q', name: 'quit (every label is kept)', value: 'quit' },
];

/** What one key did. */
export type ReviewOutcome =
    | { kind: 'labelled'; item: ReviewItem; label: ReviewLabel }
    | { kind: 'skipped'; item: ReviewItem }
    /** A claim of the current answer marked (status) or unmarked (none); stored with the answer's label. */
    | { kind: 'claim-marked'; item: ReviewItem; claim: number; status?: ClaimStatus }
    /** A claim key beyond the claims the current answer has: nothing marked. */
    | { kind: 'no-claim'; item: ReviewItem; claim: number }
    | { kind: 'undone'; item: ReviewItem }
    | { kind: 'nothing-to-undo' }
    | { kind: 'quit' }
    | { kind: 'finished' }
    /** The key was meant for an answer no longer shown (a key pressed twice before the next answer arrived): nothing done. */
    | { kind: 'stale' };

export class ReviewRound {
    private readonly queue: ReviewItem[];
    /** Items passed (labelled or skipped) in this round, in order: undo walks back through them. */
    private readonly done: ReviewItem[] = [];
    /** This reviewer's labels over the selection (before this round and in it): what the running agreement is over. */
    private readonly judged: { item: ReviewItem; label: ReviewLabel['label'] }[];
    /** Labels given in this round (undone ones taken off). */
    added = 0;
    /** The current answer's claim marks (index in the data check's claims → status), until its label stores them. */
    private readonly marks = new Map<number, ClaimStatus>();

    /** `first`: a question whose answers come first (the review opened on one question, from the Test Explorer). */
    constructor(
        readonly session: ReviewSession,
        readonly reviewer: string,
        readonly target?: number,
        first?: string,
    ) {
        const mine = new Map(session.labels.filter(l => l.reviewer === reviewer).map(l => [slotOf(l), l.label]));
        this.judged = session.items
            .filter(i => mine.has(slotOf(i.verdict)))
            .map(i => ({ item: i, label: mine.get(slotOf(i.verdict))! }));
        const isFirst = (i: ReviewItem) => i.question.id === first;
        this.queue = [...session.next.filter(isFirst), ...session.next.filter(i => !isFirst(i))];
    }

    get runId(): string {
        return this.session.runId;
    }

    /** The item to label now; undefined when the round is over. */
    get current(): ReviewItem | undefined {
        return this.queue[0];
    }

    /** The current item's place: `at` of `of` in this round. */
    get position(): { at: number; of: number } {
        return { at: this.done.length + 1, of: this.done.length + this.queue.length };
    }

    /** The current answer's claim marks, by index in the data check's claims. */
    get claimMarks(): ReadonlyMap<number, ClaimStatus> {
        return this.marks;
    }

    /** The reader's agreement with this reviewer's labels of the selection (unsure left out). */
    agreement(): Figure {
        return agreementOf(this.judged.map(j => ({ verdict: j.item.verdict, label: j.label })));
    }

    /** With a target half-width: how many more labels it needs at the agreement seen so far. */
    needed(): number | undefined {
        if (this.target === undefined) return undefined;
        const f = this.agreement();
        return labelsNeeded(f.k, f.n, this.target);
    }

    /** This reviewer's labels of the selection, before this round and in it. */
    get labelled(): number {
        return this.judged.length;
    }

    /**
     * Applies a key to the current item (undo: to the last one passed); a label is stored at once. `shown`: the slot of
     * the answer the person saw when pressing it (a face that may lag behind the round says which).
     */
    async act(store: Store, action: ReviewAction, shown?: string): Promise<ReviewOutcome> {
        if (action === 'quit') return { kind: 'quit' };
        if (shown !== undefined && action !== 'undo' && (!this.current || slotOf(this.current.verdict) !== shown))
            return { kind: 'stale' };
        if (action === 'undo') {
            const last = this.done.pop();
            if (!last) return { kind: 'nothing-to-undo' };
            const v = last.verdict;
            await store.removeLabel(this.runId, v.questionId, v.model, v.sample, this.reviewer);
            const at = this.judged.findIndex(j => j.item === last);
            if (at >= 0) {
                this.judged.splice(at, 1);
                this.added--;
            }
            this.queue.unshift(last);
            this.marks.clear();
            return { kind: 'undone', item: last };
        }
        const item = this.queue[0];
        if (!item) return { kind: 'finished' };
        if (isClaimAction(action)) {
            const claim = Number(action.slice('claim-'.length)) - 1;
            if (claim >= claimKeys(item).length) return { kind: 'no-claim', item, claim };
            const mark = this.marks.get(claim);
            const next = CLAIM_MARKS[mark === undefined ? 0 : CLAIM_MARKS.indexOf(mark) + 1];
            if (next) this.marks.set(claim, next);
            else this.marks.delete(claim);
            return { kind: 'claim-marked', item, claim, ...(next ? { status: next } : {}) };
        }
        if (action === 'skip') {
            this.queue.shift();
            this.done.push(item);
            this.marks.clear();
            return { kind: 'skipped', item };
        }
        const claims = [...this.marks].sort((a, b) => a[0] - b[0]).map(([index, status]) => ({ index, status }));
        const label = await recordReviewLabel(store, this.runId, item, this.reviewer, action, claims);
        this.marks.clear();
        this.queue.shift();
        this.done.push(item);
        this.judged.push({ item, label: label.label });
        this.added++;
        return { kind: 'labelled', item, label };
    }
}
