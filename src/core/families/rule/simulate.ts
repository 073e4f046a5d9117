/**
 * The offline simulator's rule answers, with known shares of each kind of error so every rule metric can be
 * checked against a known truth (issue 14): per derived fact, a wrong inference (the model concludes the fact
 * does not hold: every question of its group is answered against it, consistently, with right premises) and a
 * wrong premise (one premise stated with another value of its attribute; the conclusion kept); per polarity twin,
 * a flip (its answer alone is reversed, which breaks the metamorphic relation).
 */
import type { KeyedDraw, SimulatorRates } from '../../probes/family.js';
import type { Question } from '../../probes/question.js';
import { factText } from './questions.js';

type Domain = (relation: string, attribute: string) => readonly string[];

const flip = (g: 'yes' | 'no') => (g === 'yes' ? 'no' : 'yes');

export function simulateRuleAnswer(q: Question, rates: SimulatorRates, draw: KeyedDraw, domain?: Domain): string {
    const gold = q.gold === 'no' ? 'no' : 'yes';
    const rule = q.rule;
    if (!rule) return gold === 'yes' ? 'Yes.' : 'No.';
    const fact = factText(rule.fact);
    let answer: 'yes' | 'no' = gold;
    if (draw(fact, 'wrong-inference') < (rates.wrongInferences ?? 0)) answer = flip(answer);
    if (rule.role === 'polarity' && draw(q.id, 'flip-twin') < (rates.flipsTwins ?? 0)) answer = flip(answer);
    const wrongAt = draw(fact, 'wrong-premise') < (rates.wrongPremises ?? 0) ? Math.floor(draw(fact, 'which-premise') * rule.premises.length) : -1;
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
