/**
 * What a rule derives, for the editor (hover, "Preview derived facts") and `halluprobe`: how many facts, and a
 * sample of them each with its proof written out as an indented tree. The faces only render this.
 */
import type { LoadedData } from '../data/types.js';
import type { SpecModel } from '../spec/model.js';
import type { Proof } from './ir.js';
import { translateRules } from './translate.js';
import { evaluate } from './evaluate.js';
import { oversizedMessage, oversizedRules } from './estimate.js';
import { baseFacts } from './facts.js';
import { factText } from './text.js';

export interface RulePreview {
    rule: string;
    /** Facts derived (after the cap). */
    count: number;
    /** The cap or the fact limit cut the fixpoint short. */
    truncated: boolean;
    samples: { fact: string; proof: string[] }[];
    /** Why nothing can be derived (the rules have errors). */
    problem?: string;
}

/** The proof as lines: the fact, then each premise indented under it with the rule that used it. */
export function proofLines(proof: Proof, depth = 0, out: string[] = []): string[] {
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
    if (oversized.length > 0) return { rule, count: 0, truncated: false, samples: [], problem: oversizedMessage(oversized.find(e => e.rule === rule) ?? oversized[0]!) };
    const d = evaluate(t.program, base, { seed: 0 });
    const facts = d.facts(rule);
    return {
        rule, count: facts.length, truncated: d.stats.truncated.includes(rule),
        samples: facts.slice(0, samples).map(f => ({ fact: factText(f), proof: proofLines(d.proof(f) ?? { kind: 'base', fact: f }) })),
    };
}

/** The preview as Markdown (data values sit in code blocks, so nothing in them is read as markup). */
export function previewText(p: RulePreview): string {
    if (p.problem) return `# ${p.rule}\n\nCannot derive facts: ${p.problem}\n`;
    const head = `# ${p.rule}: ${p.count} derived fact(s)${p.truncated ? ' (cut short by its cap)' : ''}\n`;
    const fence = (lines: string[]) => '```text\n' + lines.join('\n').replace(/```/g, "'''") + '\n```';
    return [head, ...p.samples.map(s => fence(s.proof))].join('\n') + '\n';
}
