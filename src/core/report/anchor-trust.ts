/**
 * The review's trust figures per spec line (a probe or an FD) × model, for the editor's CodeLens and hover: the
 * reader's agreement with the run's review labels and A corrected by them, computed by the review room's
 * `computeTrust` over the line's answers taken as one group (every phrasing and variant), exactly as the reports
 * compute a metrics group's. `line` is the text the lens shows; the figures are there for comparing faces.
 */
import type { ReviewLabel } from '../store/types.js';
import type { Figure } from '../verify/figures.js';
import { isMeasured } from '../verify/passed.js';
import { computeTrust, type CorrectedFigure, type TrustRow } from '../review/trust.js';
import { anchorResults, type AnchorInput, type AnchorResult } from './anchors.js';
import { pct, ciText, ratio } from './numbers.js';
import { agreementText } from './trust.js';

export interface AnchorTrust {
    key: string;
    model: string;
    /** Answers on the line, and those with a label that counts (not unsure). */
    n: number;
    reviewed: number;
    agreement: Figure;
    /** A corrected by the labels (prediction-powered), beside the reader's A. */
    A?: CorrectedFigure;
    /** "reader agrees 0.80 [0.38, 0.96] on 5 reviewed · A corrected 0.58 [0.31, 0.84]", or that nobody reviewed it (the hover). */
    line: string;
    /** The same in the CodeLens's room: "reader agrees .80 [.38, .96] on 5 · A corrected .58 [.31, .84]", or "not reviewed". */
    lens: string;
}

/** What a line says when the run has no label at all, and when only other lines have labels. */
export const LENS_NOT_REVIEWED = "not reviewed: the reader's agreement is unknown";
const LENS_LINE_NOT_REVIEWED = 'no answer on this line reviewed yet';

const shortCi = (ci: [number, number] | null) => (ci ? ` [${ratio(ci[0])}, ${ratio(ci[1])}]` : '');

/** The trust figures of every spec line × model of a run (`anchors`: the lines' results, when already computed). */
export function anchorTrust(
    input: AnchorInput,
    labels: readonly ReviewLabel[],
    fdOf: ReadonlyMap<string, string>,
    anchors?: Map<string, AnchorResult[]>,
): Map<string, AnchorTrust[]> {
    const lines = anchors ?? anchorResults(input, fdOf);
    const questions = new Map(input.questions.map(q => [q.id, q]));
    const out = new Map<string, AnchorTrust[]>();
    for (const [key, results] of lines) {
        out.set(
            key,
            results.map(r => {
                // The line's answers as one group: every phrasing and variant under the line's 'all', every probe of an FD's line under its id.
                const rows: TrustRow[] = r.verdicts.flatMap(v => {
                    const q = questions.get(v.questionId);
                    if (!q || !isMeasured(q)) return [];
                    const { variantId: _variantId, ...rest } = q;
                    return [
                        {
                            question: {
                                ...rest,
                                probe: r.metrics.probe,
                                phrasing: r.metrics.phrasing,
                                variant: r.metrics.variant,
                            },
                            verdict: v,
                            rawModel: v.model,
                        },
                    ];
                });
                const group = computeTrust([r.metrics], rows, labels).groups[0];
                if (!group) {
                    const none = { k: 0, n: 0, value: null, ci: null };
                    const line = labels.length ? LENS_LINE_NOT_REVIEWED : LENS_NOT_REVIEWED;
                    return {
                        key,
                        model: r.model,
                        n: rows.length,
                        reviewed: 0,
                        agreement: none,
                        line,
                        lens: labels.length ? 'none reviewed here' : 'not reviewed',
                    };
                }
                const t: AnchorTrust = {
                    key,
                    model: r.model,
                    n: group.n,
                    reviewed: group.reviewed,
                    agreement: group.agreement,
                    line: LENS_LINE_NOT_REVIEWED,
                    lens: 'none reviewed here',
                };
                if (group.corrected.A) t.A = group.corrected.A;
                const a = group.agreement;
                if (a.value !== null) {
                    t.line = `reader agrees ${agreementText(a)}${t.A ? ` · A corrected ${pct(t.A.value)} ${ciText(t.A.ci)}` : ''}`;
                    t.lens = `reader agrees ${ratio(a.value)}${shortCi(a.ci)} on ${a.n}${t.A ? ` · A corrected ${ratio(t.A.value)}${shortCi(t.A.ci)}` : ''}`;
                }
                return t;
            }),
        );
    }
    return out;
}
