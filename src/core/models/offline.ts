/**
 * The offline simulator: answers from each question's own gold answer and keywords, with configurable rates of
 * not knowing, saying it is unsure, leaving the rationale out and contradicting it with another value of the same
 * attribute. It lets people try HalluProbe with no model at all; its name says "offline simulator" everywhere.
 * Deterministic: every draw is a hash of the model seed, the question (or its entity) and what is drawn.
 */
import type { Keyword, Question } from '../probes/question.js';
import { draw } from './draw.js';
import type { Settings } from '../spec/model.js';
import { ModelError, type Completion, type CompletionRequest, type ModelClient } from './types.js';
import type { LoadedData } from '../data/types.js';
import { capabilityOf, simulatorRateSettings } from '../probes/registry.js';
import { readDeclared } from '../spec/settings.js';
import { MODEL_SETTINGS } from './settings.js';
import type { SimulatorCapability, SimulatorRates } from '../probes/contract/simulator.js';

/**
 * The simulated model's rates: the shared ones below, and each registered family's own by its setting name
 * (`SimulatorCapability.rates`: open's `follows`, rule's `wrong_premises` …), which the family's hooks read.
 */
export interface OfflineRates extends SimulatorRates {
    /** Share of entities the simulated model knows. */
    knowledge: number;
    /** Share of answers about an unknown entity that say "not sure" instead of guessing. */
    unsure: number;
    /** Share of correct answers that give no rationale. */
    omit: number;
    /** Share of answers whose rationale states another value of the same attribute. */
    contradict: number;
    seed: number;
}

/** Other values of an attribute, for contradictions (the CLI passes the loaded data's column). */
export type DomainFn = (relation: string, attribute: string) => readonly string[];

/** The values each attribute takes in the data (computed once per attribute), for the simulator's contradictions. */
export function domainFromData(data: LoadedData): DomainFn {
    const memo = new Map<string, string[]>();
    return (relation, attribute) => {
        const k = `${relation}.${attribute}`;
        let values = memo.get(k);
        if (!values) {
            const column = data.tables.get(relation)?.column(attribute);
            values = column
                ? column.values
                      .flat(2)
                      .filter(v => v !== null && v !== '')
                      .map(String)
                : [];
            memo.set(k, values);
        }
        return values;
    };
}

/** The simulator's seed when the model block gives none. */
const SIMULATOR_SEED = 1;

/** The shared rates (model settings) and every registered family's (their declarations), at their defaults unless `settings` sets them. */
function ratesFrom(settings: Settings): OfflineRates {
    const own = MODEL_SETTINGS.read(settings);
    const families = readDeclared(simulatorRateSettings(), settings) as Record<string, number>;
    return {
        ...families,
        knowledge: own.knowledge,
        unsure: own.unsure,
        omit: own.omit,
        contradict: own.contradict,
        seed: own.seed ?? SIMULATOR_SEED,
    };
}

/** The defaults, with the built-in families' rates. */
export const DEFAULT_RATES: OfflineRates = ratesFrom({});

/** The rates an `offline` model block sets (a setting of the rate's name), the defaults for the rest. */
export function offlineRates(settings: Settings): OfflineRates {
    return ratesFrom(settings);
}

function pickFrom<T>(items: readonly T[], u: number): T | undefined {
    return items.length ? items[Math.floor(u * items.length)] : undefined;
}

/** The offline simulator of a question's family; a family without one has no offline answers, and says so. */
function simulatorOf(q: Question): SimulatorCapability {
    const simulator = capabilityOf(q.kind, 'simulator');
    if (!simulator) throw new ModelError('no_answer', `the offline simulator has no answers to ${q.kind} questions`);
    return simulator;
}

export class OfflineClient implements ModelClient {
    readonly cacheable = false;
    readonly displayName: string;

    constructor(
        name: string,
        readonly rates: OfflineRates,
        private readonly domain?: DomainFn,
    ) {
        this.displayName = `${name} (offline simulator)`;
    }

    async complete(request: CompletionRequest): Promise<Completion> {
        const q = request.question;
        if (!q) throw new ModelError('no_answer', 'the offline simulator answers generated questions only');
        const text = this.answer(q, request.sample);
        return { text, tokens: { input: 0, output: 0 }, latencyMs: 0, finishReason: 'stop' };
    }

    /** The simulated answer to one question (pure). */
    answer(q: Question, sample = 0): string {
        const r = this.rates;
        const u = (what: string) => draw(r.seed, q.id, sample, what);
        // Knowing is a property of the entity, so every phrasing about it agrees.
        const knows = draw(r.seed, q.entity.relation, ...q.entity.key, 'knows') < r.knowledge;
        const keywords = q.keywords.flat();
        if (!knows) {
            if (u('unsure') < r.unsure) return "I'm not sure. I don't have reliable information about this.";
            return this.guess(q, u);
        }
        const simulator = simulatorOf(q);
        if (simulator.simulate) return simulator.simulate(q, r, (...parts) => draw(r.seed, ...parts), this.domain);
        const contradict = u('contradict') < r.contradict;
        const omit = !contradict && u('omit') < r.omit;
        const facts = omit ? '' : ' ' + this.rationale(keywords, contradict ? u('which') : undefined, q);
        return this.answerWord(q, q.gold) + facts;
    }

    private answerWord(q: Question, gold: Question['gold']): string {
        return simulatorOf(q).answerText(q, gold, this.rates);
    }

    private guess(q: Question, u: (what: string) => number): string {
        const gold = simulatorOf(q).guess(q, u);
        if (typeof gold === 'number' || gold === 'none') return this.answerWord(q, gold);
        // A yes / no guess is backed with a made-up value, as real models do.
        const v = u('guess-value');
        const kw = pickFrom(q.keywords.flat(), v);
        const other = kw ? this.otherValue(kw, q, v) : undefined;
        return this.answerWord(q, gold) + (other && kw ? ` I believe the ${kw.attribute.replace(/_/g, ' ')} is ${other}.` : '');
    }

    private rationale(keywords: Keyword[], contradictAt: number | undefined, q: Question): string {
        const wrong = contradictAt === undefined ? -1 : Math.floor(contradictAt * keywords.length);
        return keywords
            .map((k, i) => {
                const value = i === wrong ? (this.otherValue(k, q, contradictAt!) ?? k.value) : k.value;
                return `The ${k.attribute.replace(/_/g, ' ')} is ${value}.`;
            })
            .join(' ');
    }

    /** Another value of the keyword's attribute: from the domain when given, else from the question's other keywords. */
    private otherValue(k: Keyword, q: Question, u: number): string | undefined {
        const pool = (this.domain?.(k.relation, k.attribute) ?? []).filter(v => v !== k.value);
        const fallback = q.keywords
            .flat()
            .filter(o => o.attribute === k.attribute && o.value !== k.value)
            .map(o => o.value);
        return pickFrom(pool.length ? pool : fallback, u);
    }
}
