/**
 * A rule probe's settings (`probe p rule using r { … }`), read through this table's typed `read` by the family
 * (family.ts, questions.ts, temporal.ts) and its model steps (extract-run.ts, embed-run.ts).
 */
import { declareSettings } from '../../spec/settings.js';

/** The prompt layouts of a rule probe: `chat` (the default) or `paper` (questions.ts paperUserTurn). */
const RULE_PROMPTS = ['chat', 'paper'] as const;

/** The template presets of a rule probe: `basic` (a question and its polarity twin) or `paper` (paperTemplates). */
const RULE_TEMPLATES = ['basic', 'paper'] as const;

/** The operators a temporal formula is written with (`temporal "finally [0, 3] globally [0, 2]"`, `temporal and`, `temporal before`). */
export const TEMPORAL_OPS = ['at', 'next', 'globally', 'finally', 'until', 'and', 'or', 'before'] as const;

/**
 * Below this node / edge overlap a wrong answer's overlap is low: θ_E = θ_N = 0.8, the paper's (§5.1, METHODS.md §2;
 * the authors' code also matches a triple only when subject, predicate and object each have cosine > 0.8). A rule
 * probe's `low_overlap` setting changes it.
 */
export const LOW_OVERLAP = 0.8;

/** The cosine at which two embeddings match (the paper's). */
const DEFAULT_SIMILARITY = 0.8;

export const RULE_SETTINGS = declareSettings('probe rule', {
    per_entity: { type: 'integer', min: 1, default: 2, doc: 'Derived facts asked per entity (default 2).' },
    noun: { type: 'text', doc: "How the rule's subject is named in questions." },
    active: { type: 'text', doc: "The rule's phrase in the active voice." },
    passive: { type: 'text', doc: "The rule's phrase in the passive voice." },
    system: {
        type: 'text',
        doc: "The system prompt (default: the paper's, with its instruction and example under prompt chat).",
    },
    prompt: {
        type: 'text',
        values: RULE_PROMPTS,
        default: 'chat',
        doc: "The prompt layout: chat (default: the paper's words, instruction and example in the system turn, the question alone as the user turn) or paper (the paper's prompt as sent: its system prompt alone, the instruction and worked example in the user turn).",
    },
    templates: {
        type: 'text',
        values: RULE_TEMPLATES,
        default: 'basic',
        doc: "The question templates: basic (default: a question and its polarity twin) or paper (the paper's 5–6 paraphrases per rule kind, each with its gold).",
    },
    // A formula, read and checked where the rule family compiles (temporal.ts parseTemporal), so no fixed values here.
    temporal: {
        type: 'text',
        doc: `Ask about interval facts: one operator (${TEMPORAL_OPS.join(', ')}) or nested ones with windows, e.g. "finally [0, 3] globally [0, 2]", "until [0, 4]".`,
    },
    within: {
        type: 'integer',
        list: true,
        doc: 'The window of globally / finally / until written without one, relative to the anchor year: [a, b] with a <= b (default [0, 2]; until: no bound).',
    },
    extract_with: { type: 'text', doc: "A model of the spec that extracts the rationale's triples (JSON mode)." },
    embeddings: { type: 'text', doc: "An embeddings model of the spec for the paper's node / edge overlaps." },
    // Its range (0, 1] is checked where the rule family compiles, with the paper's value in the message.
    similarity: {
        type: 'number',
        default: DEFAULT_SIMILARITY,
        doc: "The cosine at which two embeddings match, in (0, 1] (default 0.8, the paper's).",
    },
    low_overlap: {
        type: 'number',
        default: LOW_OVERLAP,
        doc: "Below it a node / edge overlap is low, for the paper's categories of wrong answers, in (0, 1] (default 0.8, the paper's θ).",
    },
});
