/**
 * An answer with no verdict word that asserts the question's own proposition, or its negation (issue 41, rule 1):
 * the same entities the question names, the relation it asks about, said as the answer's own statement. The
 * question's structure decides (its entities, its relation's words and the rule's names), not a list of phrasings.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readYesNo } from '../../../src/core/reader/index.js';
import { ruleFamily } from '../../../src/core/families/rule/family.js';
import { paperUserTurn } from '../../../src/core/families/rule/questions.js';
import type { Question } from '../../../src/core/probes/question.js';

const same = 'In 2020, is it true that K. Mbappé and Neymar share the same club?';
const apart = 'Do K. Mbappé and Neymar have totally different clubs?';
const pair = { entities: ['K. Mbappé', 'Neymar'], names: ['colleague', 'teammates'] };

const read = (text: string, question: string) => readYesNo(text, { question, proposition: { question, ...pair } }).label;

describe('an answer that states the question’s proposition as its own assertion', () => {
    it('answers yes when it asserts the proposition (the relation in the question’s words or the rule’s)', () => {
        assert.equal(read('Kylian Mbappé and Neymar played for the same club in 2020, Paris Saint-Germain.', same), 'yes');
        assert.equal(read('Happy to help! Kylian Mbappé and Neymar were teammates in 2020 — both at PSG.', same), 'yes');
    });

    it('answers no when it asserts the negation, and reads a negated question the other way', () => {
        assert.equal(read('Mbappé and Neymar did not share a club in 2020; they were rivals.', same), 'no');
        assert.equal(read('Mbappé and Neymar were teammates at Paris Saint-Germain.', apart), 'no');
        assert.equal(read('Mbappé and Neymar played at totally different clubs.', apart), 'yes');
    });

    it('does not answer when the statement is conditional, only possible, asked, or about something else', () => {
        assert.equal(read('If both were at PSG that season, Mbappé and Neymar would have been teammates.', same), 'unparseable');
        assert.equal(read('Mbappé and Neymar may have been teammates at some point.', same), 'unparseable');
        assert.equal(read('Were Mbappé and Neymar teammates in 2020? Let me think about the squads.', same), 'unparseable');
        assert.equal(read('Mbappé and Neymar are two of the most expensive transfers ever.', same), 'unparseable');
        // a verdict word the reader could not place: the answer has verdicts of its own, so the statement does not decide
        assert.equal(
            read('Mbappé and Neymar did share a club — PSG, in 2020. So if you mean that season, yes. But these days, no.', same),
            'unparseable',
        );
        // the question's time is part of its proposition: a statement about another year does not answer it
        assert.equal(read('Kylian Mbappé and Neymar were teammates at PSG in 2018.', same), 'unparseable');
        // one entity only
        assert.equal(read('Kylian Mbappé played for Paris Saint-Germain in 2020.', same), 'unparseable');
    });

    it('leaves a verdict word where there is one, and needs the question’s entities from the family', () => {
        assert.equal(read('No. Mbappé and Neymar were teammates, but only from 2017.', same), 'no');
        assert.equal(readYesNo('Kylian Mbappé and Neymar were teammates in 2020.', { question: same }).label, 'unparseable');
    });

    it('the rule family passes its question’s entities and names, so its parse reads such an answer', () => {
        const q = {
            question: same,
            probe: 'teammates',
            rule: { pred: 'colleague', args: ['K. Mbappé', 'Neymar'] },
        } as unknown as Question;
        const parsed = ruleFamily.core.parse('Sure! Kylian Mbappé and Neymar were definitely teammates in 2020.', q);
        assert.equal(parsed.answer, 'yes');
        // `prompt paper`: the question is read out of the paper's user turn (its worked example is no part of it)
        const paper = { ...q, question: paperUserTurn(same) } as Question;
        assert.equal(
            ruleFamily.core.parse('Mbappé and Neymar were teammates at Paris Saint-Germain in 2020.', paper).answer,
            'yes',
        );
        // a temporal question's time is a formula ("in the year after 2005", "until …") the statement's words cannot be
        // matched against: no proposition is passed
        const temporal = {
            question: 'Is it true that in the year after 2005, Cristiano Ronaldo played for Sporting CP?',
            probe: 'spells',
            rule: {
                pred: 'played_for',
                args: ['Cristiano Ronaldo', 'Sporting CP'],
                temporal: { op: 'next', years: [2006, 2006] },
            },
        } as unknown as Question;
        assert.equal(
            ruleFamily.core.parse('Cristiano Ronaldo played for Sporting CP in 2005, before Manchester United.', temporal).answer,
            'unparseable',
        );
    });
});
