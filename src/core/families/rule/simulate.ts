/**
 * The offline simulator's rule answers, with known shares of each kind of error so every rule metric can be
 * checked against a known truth (issue 14): per derived fact, a wrong inference (the model concludes the fact
 * does not hold: every question of its group is answered against it, consistently, with right premises) and a
 * wrong premise (one premise stated with another value of its attribute; the conclusion kept); per polarity twin,
 * a flip (its answer alone is reversed, which breaks the metamorphic relation).
 */
import type { KeyedDraw, SimulatorRate, SimulatorRates } from '../../probes/contract/simulator.js';
import type { Question } from '../../probes/question.js';
import { factText } from './questions.js';

type Domain = (relation: string, attribute: string) => readonly string[];

/** The rates of its errors, settings of an `offline` model block (docs/models.md). */
export const RULE_SIMULATOR_RATES: readonly SimulatorRate[] = [
    {
        name: 'wrong_premises',
        default: 0,
        doc: 'Rule probes: the share of derived facts the simulated model states with one wrong premise.',
    },
    {
        name: 'wrong_inferences',
        default: 0,
        doc: 'Rule probes: the share of derived facts the simulated model concludes wrongly.',
    },
    { name: 'flips_twins', default: 0, doc: 'Rule probes: the share of polarity twins the simulated model answers flipped.' },
];

const flip = (g: 'yes' | 'no') => (g === 'yes' ? 'no' : 'yes');

export function simulateRuleAnswer(q: Question, rates: SimulatorRates, draw: KeyedDraw, domain?: Domain): string {
    const gold = q.gold === 'no' ? 'no' : 'yes';
    const rule = q.rule;
    if (!rule) return gold === 'yes' ? 'Yes.' : 'No.';
    const fact = factText(rule.fact);
    let answer: 'yes' | 'no' = gold;
    if (draw(fact, 'wrong-inference') < (rates.wrong_inferences ?? 0)) answer = flip(answer);
    if (rule.role === 'polarity' && draw(q.id, 'flip-twin') < (rates.flips_twins ?? 0)) answer = flip(answer);
    const wrongAt =
        draw(fact, 'wrong-premise') < (rates.wrong_premises ?? 0)
            ? Math.floor(draw(fact, 'which-premise') * rule.premises.length)
            : -1;
    const points = rule.premises.map((p, i) => {
        let value = p.value;
        if (i === wrongAt) {
            const others = (domain?.(p.relation, p.attribute) ?? []).filter(v => v !== p.value);
            if (others.length) value = others[Math.floor(draw(fact, 'other-value') * others.length)]!;
        }
        return `${i + 1}. The ${p.label ?? p.attribute.replace(/_/g, ' ')} of ${p.subject} is ${value}.`;
    });
    const conclusion = `${points.length + 1}. So ${answer === gold ? 'the statement asked about follows' : 'the statement asked about does not follow'} from these facts.`;
    return `${answer === 'yes' ? 'Yes' : 'No'}.\n${[...points, conclusion].join('\n')}`;
}
