/**
 * How a derived fact becomes questions (HalluVault, METHODS.md §2): phrasing templates per relation form (the
 * rule's phrase, a noun phrase, an active or a passive verb), a polarity twin whose gold flips, and the paper's
 * prompt. Plain text work: no data access here.
 */
import type { ProbeDecl, RelationDecl } from '../../spec/model.js';
import { describeBy, relationLabel } from '../../probes/scope.js';
import { KEY_SEPARATOR, type Proof, type Value } from '../../rules/ir.js';
import { display } from '../../rules/text.js';

export { display, factText } from '../../rules/text.js';
import type { PredicateInfo } from '../../rules/translate.js';
import { RULE_SETTINGS } from './settings.js';

/**
 * HalluVault's system prompt, its instruction and one worked example. The default layout (`prompt chat`) puts all
 * three in the system turn, so the user turn is the question alone; `prompt paper` sends them as the paper does.
 */
export const PAPER_SYSTEM = 'Answer the question with your knowledge and reasoning power.';
const PAPER_INSTRUCTION =
    'Think of it step by step with a human-like reasoning process. Begin your answer with "Yes", "No" or "I don\'t know". ' +
    'After giving the answer, list the knowledge used in your reasoning process in the form of declarative sentences and point by point.';
const PAPER_EXAMPLE =
    'Example. Question: Is it true that Lionel Messi and Andrés Iniesta played for the same club?\n' +
    'Answer: Yes.\n1. Lionel Messi played for FC Barcelona.\n2. Andrés Iniesta played for FC Barcelona.\n3. So they played for the same club.';
export const RULE_SYSTEM = `${PAPER_SYSTEM} ${PAPER_INSTRUCTION}\n\n${PAPER_EXAMPLE}`;

/**
 * The user turn of the paper's prompt (`prompt paper`), in the authors' words and order: the question quoted, the
 * instruction, how the answer must begin, and their worked example — a temporal question with its supposed
 * response and numbered knowledge points. The system turn is PAPER_SYSTEM alone.
 */
export function paperUserTurn(question: string): string {
    return (
        `Now given the question: "${question}", please answer it with your knowledge and reasoning power. ` +
        'Think of it step by step with a human-like reasoning process. After giving the answer, list the knowledge used in your reasoning process in the form of declarative sentences and point by point. ' +
        'The answer must begin with "Yes, …", "No, …" or "I don\'t know.".\n' +
        'Here is an example. Question: While Barack Obama was President of the USA, was any film directed by James Cameron released?\n' +
        "Supposed response: Yes, during Barack Obama's presidency, from 2009 to 2017, one film directed by James Cameron was released: Avatar, in 2009.\n" +
        'The knowledge points used in this reasoning are:\n' +
        '1. Barack Obama was President of the USA from January 20, 2009 to January 20, 2017.\n' +
        '2. James Cameron is a film director known for Titanic, Avatar and Terminator 2.\n' +
        "3. The only film by James Cameron released during Obama's presidency was Avatar, in 2009."
    );
}

const PAPER_QUOTED = /^Now given the question: "([\s\S]*?)", please answer it/;

/** The question itself, out of the paper's user turn (paperUserTurn) when it is one. */
export function questionOf(asked: string): string {
    return PAPER_QUOTED.exec(asked)?.[1] ?? asked;
}

/** A question template; `role` is its place in the metamorphic group (the fact, a paraphrase of it, or a polarity twin). */
export interface RuleTemplate {
    name: string;
    text: string;
    gold: 'yes' | 'no';
    role: 'fact' | 'paraphrase' | 'polarity';
}

/** The phrasing names `templates paper` gives: the shared-object set (with `noun`), else the sentence sets'. */
export const PAPER_NOUN_PHRASINGS = ['basic', 'same', 'separate', 'different', 'possibility', 'statement'];
export const PAPER_SENTENCE_PHRASINGS = ['basic', 'possible', 'could', 'could_not', 'possibility', 'statement'];

/** How an entity of a relation reads in a question (entityName; display when no relation is known). */
export type EntityNamer = (relation: string, v: Value) => string;

/**
 * An entity as a question names it: its key; a key of several attributes by its relation's label phrasing, as the
 * other families name rows ("the soccer player whose name is X and team is A", not "X (A)").
 */
export function entityName(relation: RelationDecl | undefined, v: Value): string {
    const parts = String(v).split(KEY_SEPARATOR);
    const key = relation?.keys[0];
    if (parts.length < 2 || !relation || !key || key.length !== parts.length) return display(v);
    return `the ${relationLabel(relation)} whose ${describeBy(relation, key).replace(/\{([^}]*)\}/g, (m, a: string) => parts[key.indexOf(a)] ?? m)}`;
}

/**
 * Fills a whole question: `{param}` with the fact's arguments (named by `name`) and `{fact}` with the predicate's
 * phrase. A question that opens with an entity named by its label phrasing opens with a capital ("The soccer player
 * whose …").
 */
export function fill(
    text: string,
    info: PredicateInfo,
    args: readonly Value[],
    name: EntityNamer = (_r, v) => display(v),
): string {
    const out = fillPhrase(text, info, args, name);
    return /^\{[^}]*\}/.test(text) && out.startsWith('the ') ? `T${out.slice(1)}` : out;
}

/** Fills a phrase that goes inside a sentence ("in 2019, {p} played for {c}"): no capital added. */
export function fillPhrase(
    text: string,
    info: PredicateInfo,
    args: readonly Value[],
    name: EntityNamer = (_r, v) => display(v),
): string {
    const byName = new Map(info.params.map((p, i) => [p.name, name(p.type, args[i] ?? '')]));
    const fact =
        info.phrase !== undefined ? fillPhrase(info.phrase, { ...info, phrase: undefined } as PredicateInfo, args, name) : '';
    return text.replace(/\{([^}]*)\}/g, (m, n: string) => (n.trim() === 'fact' ? fact : (byName.get(n.trim()) ?? m)));
}

/**
 * The positive question and its polarity twin: the probe's own `basic` / `negated`, else a relation form
 * (`noun "club"`, `active "directed"`, `passive "was directed by"`), else the predicate's phrase — in the
 * paper's forms "Is it true that …?" and "… Please judge the truth of this statement."
 */
export function ruleTemplates(probe: ProbeDecl, info: PredicateInfo): RuleTemplate[] | string {
    const [a, b] = info.params.map(p => `{${p.name}}`);
    const own = probe.phrasings
        .filter(p => p.gold.kind !== 'when')
        .map(p => ({ name: p.name, text: p.text, gold: p.gold.kind as 'yes' | 'no' }));
    if (own.length > 0)
        return own.map((t, i) => ({
            ...t,
            role: t.gold === 'no' ? 'polarity' : own.findIndex(x => x.gold === 'yes') === i ? 'fact' : 'paraphrase',
        }));
    const { templates, noun, active, passive } = RULE_SETTINGS.read(probe.settings);
    const paper = templates === 'paper';
    if (noun !== undefined && b)
        return paper
            ? paperNounTemplates(a!, b, noun)
            : [
                  { name: 'basic', text: `Is it true that ${a} and ${b} share the same ${noun}?`, gold: 'yes', role: 'fact' },
                  {
                      name: 'negated',
                      text: `${a} and ${b} have totally different ${plural(noun)}. Please judge the truth of this statement.`,
                      gold: 'no',
                      role: 'polarity',
                  },
              ];
    const sentence =
        active !== undefined && b
            ? `${a} ${active} ${b}`
            : passive !== undefined && b
              ? `${b} ${passive} ${a}`
              : info.phrase !== undefined
                ? '{fact}'
                : undefined;
    if (sentence === undefined) {
        return `Probe ${probe.name} has no way to phrase ${info.name}: write basic "…" and negated "…" phrasings with {${info.params.map(p => p.name).join('}, {')}}, a relation form (noun "…", active "…" or passive "…"), or a phrase on the rule.`;
    }
    // A negative sentence ("{p} does not play for {k}") is denied by stating the positive one, not by "It is not
    // true that … does not …".
    const positive = unnegated(sentence === '{fact}' ? (info.phrase ?? '') : sentence);
    if (paper) return paperSentenceTemplates(sentence, positive);
    return [
        { name: 'basic', text: `Is it true that ${sentence}?`, gold: 'yes', role: 'fact' },
        {
            name: 'negated',
            text:
                positive !== undefined
                    ? `${positive}. Please judge the truth of this statement.`
                    : `It is not true that ${sentence}. Please judge the truth of this statement.`,
            gold: 'no',
            role: 'polarity',
        },
    ];
}

const STATEMENT = 'Please judge the truthfulness of the above statement. If it is true, answer with Yes, otherwise No.';

/**
 * HalluVault's six paraphrases of a shared-object fact ("A and B share a club"), each with its gold: three ask it
 * true, three deny it (METHODS.md §2; the authors' composite templates, their grammar mended).
 */
function paperNounTemplates(a: string, b: string, noun: string): RuleTemplate[] {
    return [
        { name: 'basic', text: `Is it true that ${a} and ${b} have the same ${noun}?`, gold: 'yes', role: 'fact' },
        { name: 'same', text: `Do ${a} and ${b} have the same ${noun}?`, gold: 'yes', role: 'paraphrase' },
        { name: 'separate', text: `Do ${a} and ${b} have completely separate ${plural(noun)}?`, gold: 'no', role: 'polarity' },
        { name: 'different', text: `Do ${a} and ${b} have totally different ${plural(noun)}?`, gold: 'no', role: 'polarity' },
        {
            name: 'possibility',
            text: `Is there any possibility that the ${noun} of ${a} is also the ${noun} of ${b}?`,
            gold: 'yes',
            role: 'paraphrase',
        },
        {
            name: 'statement',
            text: `Statement: It is not true that ${a} and ${b} have the same ${noun}. ${STATEMENT}`,
            gold: 'no',
            role: 'polarity',
        },
    ];
}

/**
 * HalluVault's five paraphrases of a fact stated as a sentence: for a positive one (its inverse and transitive
 * templates) three ask it true and two deny it; for a negative one (its negation templates, `positive` the
 * sentence without its negation) the golds follow the negation.
 */
function paperSentenceTemplates(sentence: string, positive: string | undefined): RuleTemplate[] {
    if (positive === undefined)
        return [
            { name: 'basic', text: `Is it true that ${sentence}?`, gold: 'yes', role: 'fact' },
            { name: 'possible', text: `Is it possible that ${sentence}?`, gold: 'yes', role: 'paraphrase' },
            { name: 'could', text: `Could it be that ${sentence}?`, gold: 'yes', role: 'paraphrase' },
            {
                name: 'could_not',
                text: `Is there any possibility that it is not the case that ${sentence}?`,
                gold: 'no',
                role: 'polarity',
            },
            { name: 'statement', text: `Statement: It is not true that ${sentence}. ${STATEMENT}`, gold: 'no', role: 'polarity' },
        ];
    return [
        { name: 'basic', text: `Is it true that ${sentence}?`, gold: 'yes', role: 'fact' },
        { name: 'could', text: `Could it be that ${positive}?`, gold: 'no', role: 'polarity' },
        { name: 'could_not', text: `Could it be that ${sentence}?`, gold: 'yes', role: 'paraphrase' },
        { name: 'possibility', text: `Is there any possibility that ${positive}?`, gold: 'no', role: 'polarity' },
        { name: 'statement', text: `Statement: It is not true that ${positive}. ${STATEMENT}`, gold: 'yes', role: 'paraphrase' },
    ];
}

/** "club" → "clubs", "city" → "cities", "match" → "matches" (the last word of a noun phrase). */
function plural(noun: string): string {
    if (/(?:s|sh|ch|x|z)$/i.test(noun)) return `${noun}es`;
    if (/[^aeiou]y$/i.test(noun)) return `${noun.slice(0, -1)}ies`;
    return `${noun}s`;
}

/** The third person singular of a verb: "play" → "plays", "go" → "goes", "carry" → "carries". */
function thirdPerson(verb: string): string {
    return /(?:o|s|sh|ch|x|z)$/i.test(verb) ? `${verb}es` : /[^aeiou]y$/i.test(verb) ? `${verb.slice(0, -1)}ies` : `${verb}s`;
}

/** A sentence with its one negation removed ("does not play" → "plays", "is not" → "is"); undefined when it has none. */
function unnegated(sentence: string): string | undefined {
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
    /** A temporal spell's begin or end year (temporal.ts intervalPremises): the spell's years, begin and end included. */
    spell?: [number, number];
}

/** The base facts of a proof in the order the derivation uses them (each once). */
export function premisesOf(
    proof: Proof,
    fkAttribute: (pred: string) => { relation: string; attribute: string; label?: string; key?: boolean } | undefined,
): Premise[] {
    const out: Premise[] = [];
    const seen = new Set<string>();
    const walk = (p: Proof) => {
        if (p.kind === 'rule') {
            p.premises.forEach(walk);
            return;
        }
        const key = `${p.fact.pred}(${p.fact.args.join(',')})`;
        if (seen.has(key)) return;
        seen.add(key);
        const at = fkAttribute(p.fact.pred);
        // Reading a row's own key (`b.name` of a Place keyed by name) states nothing to know; another attribute
        // whose value happens to equal the name (Liverpool's city is Liverpool) is a fact like any other.
        if (!at || at.key) return;
        out.push({
            pred: p.fact.pred,
            relation: at.relation,
            attribute: at.attribute,
            label: at.label ?? at.attribute.replace(/_/g, ' '),
            subject: display(p.fact.args[0]!),
            value: display(p.fact.args[1]!),
            nodes: [`node:${String(p.fact.args[0])}`, `node:${String(p.fact.args[1])}`],
        });
    };
    walk(proof);
    return out;
}
