// Answer swaps on free text (issue 24 items 1–4): markup turned to text first, the old answer looked for in URLs,
// hyphenated, case-folded and curly-apostrophe forms; containment invalid both ways; alias over-replacement
// caught against the old passage; answers typed (person, place, date, money, percent, count …).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
    answerType,
    askedNoun,
    questionType,
    swapAnswer,
    validateSwap,
    type Swap,
} from '../../../../src/core/families/evidence/swap.js';
import { plainText } from '../../../../src/core/families/evidence/text.js';

describe('passages with markup (item 1)', () => {
    it('are turned to text: link text kept, the URL gone, entities decoded', () => {
        const html =
            'Biden spoke at <a href="https://x.com/2022/biden-grand-canyon-university-tuition/">Grand Canyon University</a> &amp; <b>Japan</b>.';
        assert.equal(plainText(html), 'Biden spoke at Grand Canyon University & Japan.');
        assert.equal(plainText('No markup here: 3 < 4 and 5 > 2.'), 'No markup here: 3 < 4 and 5 > 2.');
    });

    it('finds the old answer left in a URL, a hyphenated slug, another case or with a curly apostrophe', () => {
        const forms = ['Grand Canyon University'];
        const original =
            'He spoke at Grand Canyon University, see https://x.com/biden-grand-canyon-university-tuition/ for more.';
        const s = swapAnswer(original, forms, 'Arizona State University')!;
        assert.equal(validateSwap(original, s, forms, 'Grand Canyon University'), 'old-answer-left');
        const joe = 'Trader Joe’s recalled it. Trader Joe’s said so.';
        const t = swapAnswer(joe, ["Trader Joe's"], 'Costco')!;
        assert.ok(t, 'the curly apostrophe matches the straight one');
        assert.equal(t.passage, 'Costco recalled it. Costco said so.');
        assert.equal(validateSwap(joe, t, ["Trader Joe's"], "Trader Joe's"), undefined);
        const shout = 'Japan won. Fans tweeted #JAPANWINS all night.';
        assert.equal(validateSwap(shout, swapAnswer(shout, ['Japan'], 'Brazil'), ['Japan'], 'Japan'), 'old-answer-left');
    });

    it('does not take a number for another number that contains it', () => {
        const p = 'The fee rose by 6 dollars in 2016, to 16 dollars.';
        assert.equal(validateSwap(p, swapAnswer(p, ['6'], '9'), ['6'], '6'), undefined);
    });
});

describe('containment (item 2)', () => {
    it('rejects a replacement contained in the old answer, and one that contains it', () => {
        const p = 'The song was written by Irving Berlin in 1911.';
        assert.equal(
            validateSwap(p, swapAnswer(p, ['Irving Berlin'], 'Berlin'), ['Irving Berlin'], 'Irving Berlin'),
            'containment',
        );
        const q = 'The summit was led by Angela Merkel.';
        assert.equal(
            validateSwap(
                q,
                swapAnswer(q, ['Angela Merkel'], 'German Chancellor Angela Merkel'),
                ['Angela Merkel'],
                'Angela Merkel',
            ),
            'containment',
        );
        assert.equal(
            validateSwap(q, swapAnswer(q, ['Angela Merkel'], 'Olaf Scholz'), ['Angela Merkel'], 'Angela Merkel'),
            undefined,
        );
    });
});

describe('alias over-replacement (item 3)', () => {
    const original = 'Avatar was directed by James Cameron, starring James Franco. Cameron wrote it.';
    const forms = ['James Cameron', 'James', 'Cameron'];

    it('a swap leaves a name part that belongs to another name alone', () => {
        const s = swapAnswer(original, forms, 'Steven Spielberg')!;
        assert.equal(s.passage, 'Avatar was directed by Steven Spielberg, starring James Franco. Steven Spielberg wrote it.');
        assert.equal(validateSwap(original, s, forms, 'James Cameron'), undefined);
    });

    it('a swap that rewrites another name is caught against the old passage', () => {
        const passage = 'Avatar was directed by Steven Spielberg, starring Steven Spielberg Franco. Steven Spielberg wrote it.';
        const spans: [number, number][] = [];
        for (let i = passage.indexOf('Steven Spielberg'); i >= 0; i = passage.indexOf('Steven Spielberg', i + 1))
            spans.push([i, i + 16]);
        const bad: Swap = { passage, spans, replacement: 'Steven Spielberg' };
        assert.equal(validateSwap(original, bad, forms, 'James Cameron'), 'extra-changes');
    });
});

describe('answer types (item 4)', () => {
    it('types numbers, money, percentages, dates and years by their form', () => {
        assert.deepEqual(
            [
                '2009',
                '$5',
                '£102m',
                '$19 million',
                '60%',
                '12 percent',
                'June 2, 2022',
                'Next week',
                '6',
                'About 2,500',
                '5.9',
            ].map(a => answerType(a)),
            ['year', 'money', 'money', 'money', 'percent', 'percent', 'date', 'date', 'count', 'count', 'number'],
        );
    });

    it('types people, places and organisations with the NLP library, and other phrases apart from names', () => {
        assert.equal(answerType('Bill Cosby'), 'person');
        assert.equal(answerType('Saudi Arabia'), 'place');
        assert.equal(answerType('Dartmouth College'), 'organisation');
        assert.equal(answerType('His age'), 'thing');
        assert.equal(answerType('Ban on military-style assault weapons'), 'thing');
    });

    it('a swap of another type is invalid', () => {
        const p = 'One trip to space will cost you about $28 million.';
        assert.equal(validateSwap(p, swapAnswer(p, ['$28 million'], 'His age'), ['$28 million'], '$28 million'), 'type-mismatch');
        const r = 'Unemployment fell to 60% this year.';
        assert.equal(validateSwap(r, swapAnswer(r, ['60%'], '12'), ['60%'], '60%'), 'type-mismatch');
        assert.equal(validateSwap(r, swapAnswer(r, ['60%'], '49%'), ['60%'], '60%'), undefined);
    });
});

describe('answer types from the question (item 4)', () => {
    it('reads the type the question asks for: who, where, when, and which / what NOUN', () => {
        assert.equal(questionType('Who directed Avatar?'), 'person');
        assert.equal(questionType('Where was the summit held?'), 'place');
        assert.equal(questionType('When did the war end?'), 'date');
        assert.equal(questionType('Which politician announced a run for president?'), 'person');
        assert.equal(questionType('Which London borough is the cheapest to rent in?'), 'place');
        assert.equal(questionType('Which company agreed to pay $30 million?'), 'organisation');
        assert.equal(questionType('Which movie is at the top of the box office?'), 'thing:movie');
        assert.equal(questionType('After 60 years, which popular beverage is getting a new bottle?'), 'thing:beverage');
        assert.equal(questionType('Which type of aquatic bird was seen?'), 'thing:bird');
        assert.equal(questionType('How many people were arrested?'), undefined);
    });

    it("a question's type overrides a name of unknown kind, never a number, date or amount", () => {
        assert.equal(answerType('Sprite', 'Which popular beverage is getting a new bottle design?'), 'thing:beverage');
        assert.equal(answerType('Rishi Sunak', 'Which politician became prime minister?'), 'person');
        assert.equal(answerType('$5', 'Which price did gas reach?'), 'money');
    });
});

describe('answer types: names that hold a month, lists, phrases, named things (item 4, this session)', () => {
    it('a month or a day inside a name is no date; a month or day with date words is', () => {
        assert.deepEqual(
            ['June Carter', 'April Ryan', 'Tuesday Weld'].map(a => answerType(a) === 'date'),
            [false, false, false],
        );
        assert.deepEqual(
            ['May', 'early June', 'mid-June', 'next Tuesday', 'Next week', 'the twentieth century'].map(a => answerType(a)),
            ['date', 'date', 'date', 'date', 'date', 'date'],
        );
    });

    it('a list of names is its own type, never swapped with one name', () => {
        assert.equal(answerType('Manchester United & Real Madrid'), 'names');
        assert.equal(answerType('United States, China and Russia'), 'names');
        assert.equal(
            answerType('Lehman Brothers Bank & Northern Rock Bank'),
            'names',
            "a list before an organisation's head word",
        );
        assert.notEqual(answerType('Procter & Gamble'), 'names');
        assert.notEqual(answerType('Bosnia and Herzegovina'), 'names');
        const p = 'Volkswagen recalled the cars.';
        assert.equal(
            validateSwap(p, swapAnswer(p, ['Volkswagen'], 'Manchester United & Real Madrid'), ['Volkswagen'], 'Volkswagen'),
            'type-mismatch',
        );
    });

    it('a phrase that is no proper name stays a thing whatever a where / who question asks', () => {
        assert.equal(answerType('Commercial airplanes', 'Where do the new rules apply?'), 'thing');
        assert.equal(answerType('Lisbon', 'Where do the new rules apply?'), 'place');
    });

    it('reads "the name of the NOUN" and "which of the following NOUNs"; the noun asked for, singular', () => {
        assert.equal(questionType('What is the name of the new rover?'), questionType('Which rover landed?'));
        assert.deepEqual(askedNoun('Which of the following US cities saw the biggest rise?'), {
            phrase: 'us city',
            head: 'city',
        });
        assert.deepEqual(askedNoun('Which countries joined the alliance?'), { phrase: 'country', head: 'country' });
        assert.deepEqual(askedNoun('Vaccinations began for which age group?'), { phrase: 'age group', head: 'group' });
        assert.deepEqual(askedNoun('Which 2024 Republican presidential candidate spoke?'), {
            phrase: 'republican presidential candidate',
            head: 'candidate',
        });
        assert.equal(questionType('Which 2024 Republican presidential candidate spoke?'), 'person');
        assert.deepEqual(askedNoun('What is the mission called?'), { phrase: 'mission', head: 'mission' });
        assert.equal(askedNoun('Where was it held?'), undefined);
    });

    it('a duration is its own type, by its form and by "how long"', () => {
        assert.deepEqual(
            ['Months', 'three weeks', 'about 10 years', 'several days'].map(a => answerType(a)),
            ['duration', 'duration', 'duration', 'duration'],
        );
        assert.equal(questionType('How long could the strike last?'), 'duration');
        assert.equal(answerType('Drought', 'Why were the fireworks cancelled?'), 'thing:reason');
        assert.notEqual(answerType('Magnitude 6.3'), 'duration');
    });
});
