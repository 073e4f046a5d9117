import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseBinary, parseChoice, parseStatement } from '../../../src/core/verify/answer.js';
import { parseErbenchLog } from '../../../src/core/models/erbench-log.js';

const fixtures = path.resolve(import.meta.dirname, '..', '..', 'fixtures', 'verify');

/** [response, expected class, expected start of the rationale] — real-looking model output. */
const BINARY: [string, string, string][] = [
    ['Yes. The movie is "Avatar".', 'yes', 'The movie'],
    ['Yes, it is true. The movie is called "Avatar".', 'yes', 'it is true'],
    ['No. There is no movie released in 2016 starring Mark Chinnery.', 'no', 'There is'],
    ['No.', 'no', ''],
    ['Unsure.', 'unsure', ''],
    ["Unsure. As an AI language model, I don't have access to the complete information.", 'unsure', 'As an AI'],
    ['yes', 'yes', ''],
    ['YES! Avatar (2009).', 'yes', 'Avatar'],
    ['   \n  Yes — Avatar.', 'yes', 'Avatar'],
    ['"Yes." The film is Avatar.', 'yes', 'The film'],
    ['**No**, Tom Hardy was not in it.', 'no', 'Tom Hardy'],
    ['**Yes.** The movie is *Avatar*.', 'yes', 'The movie'],
    ['## Answer: Yes\nThe movie is Avatar.', 'yes', 'The movie'],
    ['Answer: yes. It is Avatar.', 'yes', 'It is'],
    ['A: No. It was released in 2010.', 'no', 'It was'],
    ['Yes/No: no. Cameron did not direct it.', 'no', 'Cameron'],
    ['Yes or no: Yes. Avatar.', 'yes', 'Avatar'],
    ['yes/unsure. I think it is Avatar.', 'unsure', 'I think'],
    ['No/unsure - maybe Titanic.', 'unsure', 'maybe'],
    ['Unsure, but possibly "Avatar".', 'unsure', 'but possibly'],
    ["I'm not sure, it may be Avatar.", 'unsure', 'it may be'],
    ['I am not sure.', 'unsure', ''],
    ["I don't know about that movie.", 'unsure', 'about'],
    ['Not sure.', 'unsure', ''],
    // issue 41: a marked conclusion ("so yes") and verdicts not spelled yes / no are read (the paper rule reads none)
    ['The movie is Avatar, so yes.', 'yes', 'The movie'],
    ['Nope.', 'no', ''],
    ['Not really, it was 2010.', 'no', 'it was'],
    ['Yesterday I watched Avatar.', 'unparseable', 'Yesterday'],
    ['Nobody starred in it.', 'unparseable', 'Nobody'],
    ['', 'unparseable', ''],
    ['   ', 'unparseable', ''],
    ['> Yes. Quoted answer.', 'yes', 'Quoted'],
    ['- No, there is none.', 'no', 'there is'],
    ['`yes` Avatar', 'yes', 'Avatar'],
    ['\u201cYes,\u201d it is Avatar.', 'yes', 'it is'],
    ['<p>Yes. <b>Avatar</b></p>', 'unparseable', '<p>'],
    ['Yes.\n\nJames Cameron directed Avatar in 2009.', 'yes', 'James'],
    ['No, it is not true. The movie "Spectre" exists.', 'no', 'it is not'],
    ['Yes, Yes, Yes.', 'yes', 'Yes, Yes.'],
    // issue 41: conflicting unmarked verdicts are unreadable (the paper rule reads the first word)
    ['Yes. No. Yes.', 'unparseable', 'Yes. No. Yes.'],
    ['نعم، الفيلم هو أفاتار', 'unparseable', 'نعم'],
    ['\u0000\u0001\u00ff\ufffdYes', 'unparseable', '\u0000'],
    // Chain of thought: the close "The answer is yes." decides when the opening does not; all of it is the rationale.
    ['The director is James Cameron, born in 1954. The answer is yes.', 'yes', 'The director'],
    ['James Cameron was born in 1954, so the answer is no.', 'no', 'James'],
    ['Cameron was born in 1954. The answer is no. On reflection, the answer is yes.', 'yes', 'Cameron'],
    ['It is hard to tell. The answer is unsure.', 'unsure', 'It is'],
    // issue 41: a marked conclusion decides over the opening (the paper rule reads the opening).
    ['Yes, Cameron was born in 1954. The answer is no.', 'no', 'Cameron'],
    // "answer" alone, without the close, decides nothing.
    ['The answer depends on the cut of the film.', 'unparseable', 'The answer'],
];

describe('binary answers (paper rule, robust)', () => {
    for (const [text, want, rationale] of BINARY) {
        it(`${JSON.stringify(text.slice(0, 40))} → ${want}`, () => {
            const p = parseBinary(text);
            assert.equal(p.answer, want);
            assert.ok(
                text.slice(p.rationaleStart).startsWith(rationale),
                `rationale starts "${text.slice(p.rationaleStart, p.rationaleStart + 20)}", wanted "${rationale}"`,
            );
        });
    }

    it('reads the real GPT-3.5 answers in the fixture log the way the paper does', () => {
        const records = parseErbenchLog(readFileSync(path.join(fixtures, 'gpt35-movie-sample.log'), 'utf8'));
        assert.equal(records.length, 21);
        const classes = records.map(r => parseBinary(r.answer).answer);
        assert.deepEqual(classes.filter(c => c === 'unsure').length, 2);
        assert.ok(classes.every(c => c === 'yes' || c === 'no' || c === 'unsure'));
        const first = records[0]!;
        assert.equal(first.answer.slice(parseBinary(first.answer).rationaleStart), 'The movie is "Avatar".');
    });
});

describe('binary answers: the paper rule (answer_rule paper): the first word decides wherever there is one', () => {
    const paper = { answerRule: 'paper' as const, question: 'Is there a movie?' };
    const cases: [string, string][] = [
        ['Yes. No. Yes.', 'yes'],
        ['Yes, Cameron was born in 1954. The answer is no.', 'yes'],
        ['No, it is not true. Breck Eisner was born in 1970. The answer is yes.', 'no'],
        ['yes/unsure. I think it is Avatar.', 'unsure'],
        ["I don't know about that movie.", 'unsure'],
        // no first word: the robust reading
        ['The movie is Avatar, so yes.', 'yes'],
    ];
    for (const [text, want] of cases)
        it(`${JSON.stringify(text)} → ${want}`, () => assert.equal(parseBinary(text, paper).answer, want));
    it("statements: don't-know first", () =>
        assert.equal(parseStatement("I'm not sure, but the statement is true.", paper).answer, 'dont_know'));
});

describe('multiple choice answers', () => {
    const cases: [string, number, string, number?][] = [
        ['Option 2 is false. Avatar was released in 2009.', 3, 'option', 2],
        ['The inaccurate option is Option (3). The country is USA.', 3, 'option', 3],
        ['Option 1 and Option 3 are wrong.', 3, 'multiple'],
        ['Option 5 is wrong.', 4, 'binding', 5],
        ['Option 2. Option 4 might also be.', 4, 'option', 2],
        ['None of the above; all options are correct.', 3, 'none'],
        ['All of them look right to me.', 3, 'none'],
        ['', 3, 'unparseable'],
        ['**Option #2** is the false one.', 3, 'option', 2],
        ['option 0 is wrong', 3, 'binding', 0],
        ['The answer is Option 2. Option 3 looks odd but is right.', 3, 'option', 2],
        ['The false one is No. 2, i.e. Option 2. Option 1 is fine.', 3, 'option', 2],
    ];
    for (const [text, count, want, option] of cases) {
        it(`${JSON.stringify(text)} → ${want}`, () => {
            const p = parseChoice(text, count);
            assert.equal(p.answer, want);
            if (option !== undefined) assert.equal(p.option, option);
        });
    }
});

describe("statements (true / false / don't know, don't-know first)", () => {
    const cases: [string, string][] = [
        ['Yes, the statement is true.', 'true'],
        ['No, the statement is false.', 'false'],
        ["I don't know.", 'dont_know'],
        ["I don't know whether the statement is true.", 'dont_know'],
        ['The statement is true because Cameron directed it.', 'true'],
        ['The statement is false.', 'false'],
        // issue 41: a doubt that still commits is a (hedged) answer; the paper rule reads don't-know first
        ["I'm not sure, but the statement is true.", 'true'],
        ['True.', 'true'],
        ['Hmm.', 'unparseable'],
    ];
    for (const [text, want] of cases) {
        it(`${JSON.stringify(text)} → ${want}`, () => assert.equal(parseStatement(text).answer, want));
    }
});
