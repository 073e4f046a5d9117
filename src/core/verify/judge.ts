/**
 * The LLM judge (opt-in, always labelled "LLM judge"): asks a model whether a rationale supports the gold
 * answer and names the critical keyword, on a sample of verdicts, and measures its agreement with the
 * deterministic verifier (share of agreement and Cohen's kappa) so users can audit the verifier on their data.
 *
 * The prompt: METHODS.md does not quote the ERBench judge prompt, so this preset is our own faithful rendering
 * of the paper's description (GPT-4 judging whether the rationale mentions the critical entity correctly and
 * does not contradict it); it is labelled "erbench-like" for that reason.
 */
import type { ChatMessage, Question } from '../probes/question.js';
import type { Verdict } from './types.js';

const JUDGE_LABEL = 'LLM judge';

const JUDGE_PRESET = {
    name: 'erbench-like',
    system: 'You are a strict fact-checking judge. You compare a model\'s explanation with known facts. Answer with "Yes" or "No" on the first line, then one sentence of reason.',
    user: (q: Question, response: string, keywords: string[]) =>
        `Question: ${q.question}\n\nModel response:\n"""\n${response}\n"""\n\nKnown facts: the critical entities are ${keywords.map(k => `"${k}"`).join(', ')}.\n` +
        "Does the model's explanation correctly mention every critical entity (allowing aliases, abbreviations and partial names that clearly refer to it) without stating a conflicting value instead? Answer Yes or No.",
};

export type JudgeClient = (messages: ChatMessage[]) => Promise<string>;

interface JudgeItem {
    questionId: string;
    model: string;
    sample: number;
    verifier: boolean;
    judge: boolean | null;
    judgeText: string;
}

export interface JudgeResult {
    label: typeof JUDGE_LABEL;
    preset: string;
    items: JudgeItem[];
    /** Items where the judge gave a readable yes / no. */
    n: number;
    agreement: number | null;
    kappa: number | null;
}

/** Cohen's kappa for two binary raters. */
export function cohensKappa(pairs: [boolean, boolean][]): number | null {
    const n = pairs.length;
    if (n === 0) return null;
    let aYes = 0,
        bYes = 0,
        agree = 0;
    for (const [a, b] of pairs) {
        if (a === b) agree++;
        if (a) aYes++;
        if (b) bYes++;
    }
    const po = agree / n;
    const pe = (aYes / n) * (bYes / n) + (1 - aYes / n) * (1 - bYes / n);
    if (pe === 1) return po === 1 ? 1 : 0;
    return (po - pe) / (1 - pe);
}

/** A deterministic sample (same seed → same items): a seeded shuffle, then the first `size`. */
export function sampleVerdicts(verdicts: Verdict[], size: number, seed = 1): Verdict[] {
    let s = seed >>> 0 || 1;
    const rand = () => {
        s ^= s << 13;
        s >>>= 0;
        s ^= s >>> 17;
        s ^= s << 5;
        s >>>= 0;
        return s / 2 ** 32;
    };
    const copy = verdicts.slice();
    for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, size);
}

export async function runJudge(
    client: JudgeClient,
    questions: Map<string, Question>,
    items: { verdict: Verdict; response: string }[],
): Promise<JudgeResult> {
    const out: JudgeItem[] = [];
    for (const { verdict, response } of items) {
        const q = questions.get(verdict.questionId);
        if (!q) continue;
        const keywords = q.keywords.flat().map(k => k.value);
        let text = '';
        try {
            text = await client([
                { role: 'system', content: JUDGE_PRESET.system },
                { role: 'user', content: JUDGE_PRESET.user(q, response, keywords) },
            ]);
        } catch (e) {
            text = `error: ${(e as Error).message}`;
        }
        const m = /^\W*(yes|no)\b/i.exec(text);
        out.push({
            questionId: verdict.questionId,
            model: verdict.model,
            sample: verdict.sample,
            verifier: verdict.rationale,
            judge: m ? m[1]!.toLowerCase() === 'yes' : null,
            judgeText: text,
        });
    }
    const pairs = out.filter(i => i.judge !== null).map(i => [i.verifier, i.judge!] as [boolean, boolean]);
    return {
        label: JUDGE_LABEL,
        preset: JUDGE_PRESET.name,
        items: out,
        n: pairs.length,
        agreement: pairs.length ? pairs.filter(([a, b]) => a === b).length / pairs.length : null,
        kappa: cohensKappa(pairs),
    };
}
