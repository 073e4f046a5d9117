// The model steps of context enriching (issue 24, item 6): each answer validated before a case is kept. The model's
// answers are given as the store's cache would give them (by request); what is not there is "awaiting-model".
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage } from '../../../../src/core/probes/question.js';
import type { ModelAids } from '../../../../src/core/probes/contract/core.js';
import {
    keepsSupport,
    mergeMessages,
    modelEnrichCase,
    selectMessages,
    summariseMessages,
    type EnrichStep,
} from '../../../../src/core/families/evidence/enrich-model.js';

const question = 'Which country won the 2022 Eurovision Song Contest?';
const support = 'Ukraine won the Eurovision Song Contest in Turin with Stefania.';
const passage = `The final was watched by millions. ${support} The band thanked fans.`;
const candidates = [
    'The Eurovision Song Contest 2022 was held in Turin, Italy, after Maneskin won in 2021.',
    'Eurovision voting combines jury and public votes from every country.',
];
const summary = 'The 2022 contest was held in Turin after Maneskin won in 2021; juries and the public vote.';

/** Answers by the request's last message, as the cache holds them. */
function cache(answers: [ChatMessage[], object | string][]): ModelAids {
    const table = new Map(answers.map(([m, a]) => [m.at(-1)!.content, typeof a === 'string' ? a : JSON.stringify(a)]));
    return { chat: (_model, messages) => table.get(messages.at(-1)!.content), embed: () => undefined };
}

const input = (aids: ModelAids, steps: readonly EnrichStep[] = ['select', 'summarise', 'merge']) => ({
    question,
    passage,
    answer: 'Ukraine',
    forms: ['Ukraine'],
    candidates,
    random: () => 0.5,
    max: 4,
    model: 'm',
    steps,
    aids,
});

describe("enriching with a model's steps", () => {
    const select = selectMessages(question, 'Ukraine', passage);
    const condense = summariseMessages(candidates);
    const merge = mergeMessages(support, summary, 'Ukraine');
    const merged = `${summary} In the final, Ukraine won the Eurovision Song Contest in Turin with Stefania.`;

    it("asks in the authors' words, for one JSON object", () => {
        assert.match(
            select.at(-1)!.content,
            /^A question, the answer and a passage are shown below\. Please select the sentence in the passage that support to answer the question correctly\.\n\nQuestion:\n/,
        );
        assert.match(
            condense.at(-1)!.content,
            /^Two relevant passages are shown below\. Please condense the two passages into one passage\. \n\nRelevant Passages:\n\[1\] /,
        );
        assert.match(
            merge.at(-1)!.content,
            /^Two passages and a span are shown below\. Please merge the two passages, and make sure to keep the span in the new passage\.\n\nPassages:\n\[1\] Ukraine won/,
        );
        assert.equal(select[0]!.content, 'You are a helpful assistant.');
        for (const m of [select, condense, merge])
            assert.match(m.at(-1)!.content, /Reply with one JSON object \{"(sentence|passage)": "<[^>]+>"\}\.$/);
    });

    it('keeps a merged case that keeps the supporting sentence and the answer', () => {
        const ok = modelEnrichCase(
            input(
                cache([
                    [select, { sentence: support }],
                    [condense, { passage: summary }],
                    [merge, { passage: merged }],
                ]),
            ),
        );
        assert.deepEqual(ok, { passage: merged, support, related: [summary] });
    });

    it('waits while an answer is missing; asks merge only once select and summarise are answered', () => {
        assert.equal(modelEnrichCase(input(cache([]))), 'awaiting-model');
        assert.equal(modelEnrichCase(input(cache([[select, { sentence: support }]]))), 'awaiting-model');
        assert.equal(
            modelEnrichCase(
                input(
                    cache([
                        [select, { sentence: support }],
                        [condense, { passage: summary }],
                    ]),
                ),
            ),
            'awaiting-model',
        );
    });

    it('drops a selected sentence that is not in the passage or does not state the answer', () => {
        assert.equal(modelEnrichCase(input(cache([[select, { sentence: 'Ukraine won it all.' }]]))), 'select-invalid');
        assert.equal(modelEnrichCase(input(cache([[select, { sentence: 'The band thanked fans.' }]]))), 'select-invalid');
        assert.equal(modelEnrichCase(input(cache([[select, 'The sentence is: Ukraine won.']]))), 'select-invalid');
    });

    it('drops a condensed passage that states the answer (in any form)', () => {
        assert.equal(
            modelEnrichCase(
                input(
                    cache([
                        [select, { sentence: support }],
                        [condense, { passage: 'Turin hosted; UKRAINE was the favourite.' }],
                    ]),
                ),
            ),
            'summary-invalid',
        );
    });

    it('drops a merge that lost the supporting sentence or the answer', () => {
        const lost = modelEnrichCase(
            input(
                cache([
                    [select, { sentence: support }],
                    [condense, { passage: summary }],
                    [merge, { passage: `${summary} Stefania was a hit.` }],
                ]),
            ),
        );
        assert.equal(lost, 'merge-invalid');
        assert.ok(keepsSupport(merged, support, ['Ukraine']));
        assert.ok(
            !keepsSupport('Ukraine took part. The contest was in Turin with Stefania.', support, ['Ukraine']),
            'the words split over two sentences',
        );
    });

    it('a step left out is done lexically: select and summarise by the model, the support placed among the passages', () => {
        const two = modelEnrichCase(
            input(
                cache([
                    [select, { sentence: support }],
                    [condense, { passage: summary }],
                ]),
                ['select', 'summarise'],
            ),
        );
        assert.deepEqual(two, { passage: `${summary}\n\n${support}`, support, related: [summary], position: 2 });
    });
});
