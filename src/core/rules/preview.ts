/**
 * What a rule derives, for the editor (hover, "Preview derived facts"): how many facts, and a sample of them each
 * with its proof written out as an indented tree. The editor never derives an unbounded set: every rule is
 * bounded by EDITOR_FACT_LIMIT (or its own cap or sample), so past it the count is the estimate from the data's
 * value counts and the facts are a seeded sample. The faces only render this.
 */
import type { LoadedData } from '../data/types.js';
import type { SpecModel } from '../spec/model.js';
import type { Proof } from './ir.js';
import { translateRules } from './translate.js';
import { evaluate } from './evaluate.js';
import { approx, EDITOR_FACT_LIMIT, editorProgram, sizeRules, oversizedMessage, oversizedRules } from './sizes.js';
import { baseFacts } from './facts.js';
import { factText } from './text.js';

export interface RulePreview {
    rule: string;
    /** Facts derived (after the cap, the sample or the editor's bound). */
    count: number;
    /** The cap, the sample or the editor's bound cut the fixpoint short: `count` facts are a seeded sample. */
    truncated: boolean;
    /** When truncated: the facts the rule would derive, estimated from the data's value counts, and what bounded it. */
    estimate?: number;
    bound?: { kind: 'cap' | 'sample' | 'editor'; facts: number };
    samples: { fact: string; proof: string[] }[];
    /** Why nothing can be derived (the rules have errors). */
    problem?: string;
}

/** The proof as lines: the fact, then each premise indented under it with the rule that used it. */
function proofLines(proof: Proof, depth = 0, out: string[] = []): string[] {
    const pad = '  '.repeat(depth);
    out.push(proof.kind === 'base' ? `${pad}${factText(proof.fact)}  (data)` : `${pad}${factText(proof.fact)}  ⇐ ${proof.rule}`);
    if (proof.kind === 'rule') for (const p of proof.premises) proofLines(p, depth + 1, out);
    return out;
}

export function previewRule(spec: SpecModel, data: LoadedData, rule: string, samples = 3): RulePreview {
    const t = translateRules(spec);
    if (t.problems.length > 0) return { rule, count: 0, truncated: false, samples: [], problem: t.problems[0]!.message };
    const base = baseFacts(spec, data);
    // Never derive an unbounded set for a preview: a rule too large to derive says so instead.
    const oversized = oversizedRules(t.program, base);
    if (oversized.length > 0)
        return {
            rule,
            count: 0,
            truncated: false,
            samples: [],
            problem: oversizedMessage(oversized.find(e => e.rule === rule) ?? oversized[0]!),
        };
    const d = evaluate(editorProgram(t.program), base, { seed: 0 });
    const count = d.size(rule);
    const shown: RulePreview['samples'] = [];
    for (let i = 0; i < Math.min(samples, count); i++) {
        const f = d.factAt(rule, i)!;
        shown.push({ fact: factText(f), proof: proofLines(d.proof(f) ?? { kind: 'base', fact: f }) });
    }
    const truncated = d.stats.truncated.includes(rule);
    if (!truncated) return { rule, count, truncated, samples: shown };
    const estimate = sizeRules(t.program, base).find(e => e.rule === rule);
    const own = t.program.caps?.[rule];
    const bound =
        own !== undefined && own <= EDITOR_FACT_LIMIT
            ? { kind: t.program.sampled?.includes(rule) ? ('sample' as const) : ('cap' as const), facts: own }
            : { kind: 'editor' as const, facts: EDITOR_FACT_LIMIT };
    return {
        rule,
        count,
        truncated,
        samples: shown,
        bound,
        ...(estimate ? { estimate: Math.max(estimate.uncapped, count) } : {}),
    };
}

/** One line on how many facts a rule derives: the count, or past a bound the estimate and the sample kept. */
export function previewSummary(p: RulePreview): string {
    const n = (x: number) => x.toLocaleString('en-US');
    if (!p.truncated || !p.bound) return `derives ${n(p.count)} fact(s) over the loaded data`;
    const about =
        p.estimate !== undefined
            ? `about ${approx(p.estimate)} facts (estimated from the data's value counts)`
            : 'more facts than it keeps';
    const kept =
        p.bound.kind === 'cap'
            ? `its cap keeps a seeded sample of ${n(p.count)}`
            : p.bound.kind === 'sample'
              ? `'sample ${n(p.bound.facts)}' keeps a seeded sample of ${n(p.count)}`
              : `the editor works from a seeded sample of ${n(p.count)} (the most it derives of a rule; a run derives them all)`;
    return `derives ${about} over the loaded data; ${kept}`;
}

/** The preview as Markdown (data values sit in code blocks, so nothing in them is read as markup). */
export function previewText(p: RulePreview): string {
    if (p.problem) return `# ${p.rule}\n\nCannot derive facts: ${p.problem}\n`;
    const head = `# ${p.rule}: ${previewSummary(p)}\n`;
    const fence = (lines: string[]) => '```text\n' + lines.join('\n').replace(/```/g, "'''") + '\n```';
    return [head, ...p.samples.map(s => fence(s.proof))].join('\n') + '\n';
}
