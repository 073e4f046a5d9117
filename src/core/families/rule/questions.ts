/**
 * How a derived fact becomes questions (HalluVault, METHODS.md §2): phrasing templates per relation form (the
 * rule's phrase, a noun phrase, an active or a passive verb), a polarity twin whose gold flips, and the paper's
 * prompt. Plain text work: no data access here.
 */
import type { ProbeDecl } from '../../spec/model.js';
import type { Proof, Value } from '../../rules/ir.js';
import { display } from '../../rules/text.js';

export { display, factText } from '../../rules/text.js';
import type { PredicateInfo } from '../../rules/translate.js';

/** HalluVault's system prompt, its instruction and one worked example (the `paper` preset, the default). */
export const PAPER_SYSTEM = 'Answer the question with your knowledge and reasoning power.';
export const PAPER_INSTRUCTION = 'Think of it step by step with a human-like reasoning process. Begin your answer with "Yes", "No" or "I don\'t know". '
    + 'After giving the answer, list the knowledge used in your reasoning process in the form of declarative sentences and point by point.';
export const PAPER_EXAMPLE = 'Example. Question: Is it true that Lionel Messi and Andrés Iniesta played for the same club?\n'
    + 'Answer: Yes.\n1. Lionel Messi played for FC Barcelona.\n2. Andrés Iniesta played for FC Barcelona.\n3. So they played for the same club.';
export const RULE_SYSTEM = `${PAPER_SYSTEM} ${PAPER_INSTRUCTION}\n\n${PAPER_EXAMPLE}`;


export interface RuleTemplate { name: string; text: string; gold: 'yes' | 'no' }

/** Fills `{param}` with the fact's arguments and `{fact}` with the predicate's phrase. */
export function fill(text: string, info: PredicateInfo, args: readonly Value[]): string {
    const byName = new Map(info.params.map((p, i) => [p.name, display(args[i] ?? '')]));
    const fact = info.phrase !== undefined ? fill(info.phrase, { ...info, phrase: undefined } as PredicateInfo, args) : '';
    return text.replace(/\{([^}]*)\}/g, (m, n: string) => (n.trim() === 'fact' ? fact : byName.get(n.trim()) ?? m));
}

const text = (probe: ProbeDecl, name: string) => (typeof probe.settings[name] === 'string' ? probe.settings[name] as string : undefined);

/**
 * The positive question and its polarity twin: the probe's own `basic` / `negated`, else a relation form
 * (`noun "club"`, `active "directed"`, `passive "was directed by"`), else the predicate's phrase — in the
 * paper's forms "Is it true that …?" and "… Please judge the truth of this statement."
 */
export function ruleTemplates(probe: ProbeDecl, info: PredicateInfo): RuleTemplate[] | string {
    const [a, b] = info.params.map(p => `{${p.name}}`);
    const own = probe.phrasings.filter(p => p.gold.kind !== 'when').map(p => ({ name: p.name, text: p.text, gold: p.gold.kind as 'yes' | 'no' }));
    if (own.length > 0) return own;
    const noun = text(probe, 'noun'), active = text(probe, 'active'), passive = text(probe, 'passive');
    if (noun !== undefined && b) {
        return [
            { name: 'basic', text: `Is it true that ${a} and ${b} share the same ${noun}?`, gold: 'yes' },
            { name: 'negated', text: `${a} and ${b} have totally different ${plural(noun)}. Please judge the truth of this statement.`, gold: 'no' },
        ];
    }
    const sentence = active !== undefined && b ? `${a} ${active} ${b}` : passive !== undefined && b ? `${b} ${passive} ${a}` : info.phrase !== undefined ? '{fact}' : undefined;
    if (sentence === undefined) {
        return `Probe ${probe.name} has no way to phrase ${info.name}: write basic "…" and negated "…" phrasings with {${info.params.map(p => p.name).join('}, {')}}, a relation form (noun "…", active "…" or passive "…"), or a phrase on the rule.`;
    }
    // A negative sentence ("{p} does not play for {k}") is denied by stating the positive one, not by "It is not
    // true that … does not …".
    const positive = unnegated(sentence === '{fact}' ? info.phrase ?? '' : sentence);
    return [
        { name: 'basic', text: `Is it true that ${sentence}?`, gold: 'yes' },
        { name: 'negated', text: positive !== undefined ? `${positive}. Please judge the truth of this statement.` : `It is not true that ${sentence}. Please judge the truth of this statement.`, gold: 'no' },
    ];
}

/** "club" → "clubs", "city" → "cities", "match" → "matches" (the last word of a noun phrase). */
export function plural(noun: string): string {
    if (/(?:s|sh|ch|x|z)$/i.test(noun)) return `${noun}es`;
    if (/[^aeiou]y$/i.test(noun)) return `${noun.slice(0, -1)}ies`;
    return `${noun}s`;
}

/** The third person singular of a verb: "play" → "plays", "go" → "goes", "carry" → "carries". */
function thirdPerson(verb: string): string {
    return /(?:o|s|sh|ch|x|z)$/i.test(verb) ? `${verb}es` : /[^aeiou]y$/i.test(verb) ? `${verb.slice(0, -1)}ies` : `${verb}s`;
}

/** A sentence with its one negation removed ("does not play" → "plays", "is not" → "is"); undefined when it has none. */
export function unnegated(sentence: string): string | undefined {
    const rules: [RegExp, (m: string, ...g: string[]) => string][] = [
        [/\b(?:does not|doesn't) (\w+)/i, (_m, verb) => thirdPerson(verb!)],
        [/\b(?:do not|don't) (\w+)/i, (_m, verb) => verb!],
        [/\b(is|are|was|were|has|have|can|will) not\b/i, (_m, aux) => aux!],
        [/\b(isn't|aren't|wasn't|weren't|hasn't|haven't)/i, (_m, aux) => aux!.slice(0, -3)],
        [/\bnever /i, () => ''],
    ];
    const hits = rules.filter(([re]) => re.test(sentence));
    if (hits.length !== 1) return undefined;
    const [re, to] = hits[0]!;
    return sentence.replace(re, to as (substring: string, ...args: string[]) => string);
}

/** A base fact of a proof, as a premise the rationale should state. */
export interface Premise {
    pred: string;
    relation: string;
    attribute: string;
    /** The subject entity's key (display form) and the value. */
    /** How the attribute reads ("club", the attribute's label). */
    label?: string;
    subject: string;
    value: string;
    /** Its subject's and value's nodes in the proof graph (family.ts proofPath). */
    nodes?: [string, string];
    /** Other ways to write them (the spec's aliases), for finding claims in a rationale. */
    forms?: { subject: string[]; value: string[] };
}

/** The base facts of a proof in the order the derivation uses them (each once). */
export function premisesOf(proof: Proof, fkAttribute: (pred: string) => { relation: string; attribute: string; label?: string; key?: boolean } | undefined): Premise[] {
    const out: Premise[] = [];
    const seen = new Set<string>();
    const walk = (p: Proof) => {
        if (p.kind === 'rule') { p.premises.forEach(walk); return; }
        const key = `${p.fact.pred}(${p.fact.args.join(',')})`;
        if (seen.has(key)) return;
        seen.add(key);
        const at = fkAttribute(p.fact.pred);
        // Reading a row's own key (`b.name` of a Place keyed by name) states nothing to know; another attribute
        // whose value happens to equal the name (Liverpool's city is Liverpool) is a fact like any other.
        if (!at || at.key) return;
        out.push({ pred: p.fact.pred, relation: at.relation, attribute: at.attribute, label: at.label ?? at.attribute.replace(/_/g, ' '), subject: display(p.fact.args[0]!), value: display(p.fact.args[1]!), nodes: [`node:${String(p.fact.args[0])}`, `node:${String(p.fact.args[1])}`] });
    };
    walk(proof);
    return out;
}
