// Issue 27 item 10: the paper's question templates (HalluVault's 5–6 paraphrases per rule kind, each with its
// gold) as `templates paper`, and the paper's prompt as `prompt paper` (the system prompt alone in the system
// turn; the instruction and its worked example inside the user turn, as the authors sent it).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { paperUserTurn, PAPER_SYSTEM, ruleTemplates } from '../../../../src/core/families/rule/questions.js';
import type { ProbeDecl } from '../../../../src/core/spec/model.js';
import type { PredicateInfo } from '../../../../src/core/rules/translate.js';
import { ruleFamily } from '../../../../src/core/families/rule/family.js';

const probe = (settings: Record<string, string>): ProbeDecl =>
    ({
        name: 'p',
        kind: 'rule',
        phrasings: [],
        stems: [],
        options: [],
        asks: [],
        settings,
        loc: { file: 'x', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } },
    }) as unknown as ProbeDecl;
const info = (phrase?: string): PredicateInfo => ({
    name: 'r',
    kind: 'rule',
    params: [
        { name: 'p', type: 'Player' },
        { name: 'k', type: 'Club' },
    ],
    ...(phrase ? { phrase } : {}),
});
type T = { name: string; text: string; gold: string; role: string };

describe("the paper's templates (templates paper)", () => {
    it('a shared object (composite rule, noun form): six paraphrases, three true and three false', () => {
        const t = ruleTemplates(probe({ noun: 'club', templates: 'paper' }), info()) as T[];
        assert.deepEqual(
            t.map(x => [x.name, x.gold, x.role]),
            [
                ['basic', 'yes', 'fact'],
                ['same', 'yes', 'paraphrase'],
                ['separate', 'no', 'polarity'],
                ['different', 'no', 'polarity'],
                ['possibility', 'yes', 'paraphrase'],
                ['statement', 'no', 'polarity'],
            ],
        );
        assert.deepEqual(
            t.map(x => x.text),
            [
                'Is it true that {p} and {k} have the same club?',
                'Do {p} and {k} have the same club?',
                'Do {p} and {k} have completely separate clubs?',
                'Do {p} and {k} have totally different clubs?',
                'Is there any possibility that the club of {p} is also the club of {k}?',
                'Statement: It is not true that {p} and {k} have the same club. Please judge the truthfulness of the above statement. If it is true, answer with Yes, otherwise No.',
            ],
        );
    });

    it('a positive fact (inverse, transitive, any phrase): five paraphrases, two of them false', () => {
        const t = ruleTemplates(probe({ templates: 'paper' }), info('{p} lies in {k}')) as T[];
        assert.deepEqual(
            t.map(x => [x.name, x.gold]),
            [
                ['basic', 'yes'],
                ['possible', 'yes'],
                ['could', 'yes'],
                ['could_not', 'no'],
                ['statement', 'no'],
            ],
        );
        assert.deepEqual(
            t.map(x => x.text),
            [
                'Is it true that {fact}?',
                'Is it possible that {fact}?',
                'Could it be that {fact}?',
                'Is there any possibility that it is not the case that {fact}?',
                'Statement: It is not true that {fact}. Please judge the truthfulness of the above statement. If it is true, answer with Yes, otherwise No.',
            ],
        );
    });

    it('a negative fact (negation rule): five paraphrases whose golds follow the negation', () => {
        const t = ruleTemplates(probe({ templates: 'paper' }), info('{p} does not play for {k}')) as T[];
        assert.deepEqual(
            t.map(x => [x.name, x.gold]),
            [
                ['basic', 'yes'],
                ['could', 'no'],
                ['could_not', 'yes'],
                ['possibility', 'no'],
                ['statement', 'yes'],
            ],
        );
        assert.deepEqual(
            t.map(x => x.text),
            [
                'Is it true that {fact}?',
                'Could it be that {p} plays for {k}?',
                'Could it be that {fact}?',
                'Is there any possibility that {p} plays for {k}?',
                'Statement: It is not true that {p} plays for {k}. Please judge the truthfulness of the above statement. If it is true, answer with Yes, otherwise No.',
            ],
        );
    });

    it("an unknown preset is a setting error naming the allowed ones; Test Explorer lists the paper's phrasings", () => {
        const templates = ruleFamily.core.settings.find(s => s.name === 'templates')!;
        assert.deepEqual(templates.values, ['basic', 'paper']);
        assert.deepEqual(ruleFamily.core.phrasings(probe({ templates: 'paper', noun: 'club' })), [
            'basic',
            'same',
            'separate',
            'different',
            'possibility',
            'statement',
            'reading',
        ]);
        assert.deepEqual(ruleFamily.core.phrasings(probe({ templates: 'paper' })), [
            'basic',
            'possible',
            'could',
            'could_not',
            'possibility',
            'statement',
            'reading',
        ]);
    });
});

describe("the paper's prompt (prompt paper)", () => {
    it("keeps the system turn to the paper's system prompt and puts the instruction and the worked example in the user turn", () => {
        assert.equal(PAPER_SYSTEM, 'Answer the question with your knowledge and reasoning power.');
        const user = paperUserTurn('Is it true that L. Messi and Xavi have the same club?');
        assert.ok(
            user.startsWith(
                'Now given the question: "Is it true that L. Messi and Xavi have the same club?", please answer it with your knowledge and reasoning power.',
            ),
            user,
        );
        assert.match(
            user,
            /Think of it step by step with a human-like reasoning process\. After giving the answer, list the knowledge used in your reasoning process in the form of declarative sentences and point by point\./,
        );
        assert.match(user, /The answer must begin with "Yes, …", "No, …" or "I don't know\."/);
        // The worked example: a question, the supposed response, then its knowledge points, numbered.
        assert.match(
            user,
            /Here is an example\. Question: .+\?\nSupposed response: Yes, .+\nThe knowledge points used in this reasoning are:\n1\. .+\n2\. .+\n3\. .+$/,
        );
        const prompt = ruleFamily.core.settings.find(s => s.name === 'prompt')!;
        assert.deepEqual(prompt.values, ['chat', 'paper']);
    });
});
