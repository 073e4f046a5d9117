// Evidence prompts (issue 24 item 7), in the ReEval authors' wording (their gpt_inference.py): the paper's prompt as
// one user message (default), the same after the authors' system prompt for chat models, the third-person opinion
// prompt ("Bob said …"), and few-shot demonstrations taken from a relation of demonstration items (ReEval's nq_demo)
// rather than from the probe's own rows.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateQuestions } from '../../../../src/core/probes/index.js';
import { world } from '../../../fixtures/probes/world.js';

const ITEMS =
    'id,question,answer,evidence\n1,Who wrote Hamlet?,William Shakespeare,Hamlet is a tragedy written by William Shakespeare around 1600.\n2,Who painted the Mona Lisa?,Leonardo da Vinci,The Mona Lisa was painted by Leonardo da Vinci.\n';
const DEMOS =
    'question,answer,evidence\nwho sang the song hello?,Adele,Hello is a song by Adele from her album 25.\nwhere is the eiffel tower?,Paris,The Eiffel Tower stands in Paris.\n';
const spec = (settings: string, variant = 'zero_shot') => `
source items csv "items.csv"
source demos csv "demos.csv"
relation Item from items { id: int  question: text  answer: text  evidence: text  key (id) }
relation Demo from demos { question: text  answer: text  evidence: text  key (question) }
probe p evidence about Item {
    question "{question}"
    answer answer
    passage "{evidence}"
    perturb [closed]
    ${settings}
}
suite s { probes p  variant ${variant} }
`;

async function messages(settings: string, variant?: string) {
    const w = await world(spec(settings, variant), { 'items.csv': ITEMS, 'demos.csv': DEMOS });
    try {
        const g = generateQuestions(w.model, w.data, { suite: 's' });
        return { qs: [...g.questions], diagnostics: g.diagnostics };
    } finally {
        w.dispose();
    }
}

describe('evidence prompts', () => {
    it("default: the paper's open-book prompt as one user message", async () => {
        const { qs } = await messages('');
        const seed = qs.find(q => q.phrasing === 'seed')!;
        assert.equal(seed.messages.length, 1);
        assert.match(seed.messages[0]!.content, /^Answer the question below, paired with a context/);
    });

    it("prompt chat: the authors' system prompt for chat models, then the paper's prompt as the user turn", async () => {
        const { qs } = await messages('prompt chat');
        const seed = qs.find(q => q.phrasing === 'seed')!;
        assert.deepEqual(
            seed.messages.map(m => m.role),
            ['system', 'user'],
        );
        assert.equal(seed.messages[0]!.content, 'You are a helpful assistant.');
        assert.match(
            seed.messages[1]!.content,
            /^Answer the question below, paired with a context that provides background knowledge\. Only output the answer without other context words\.\n\nContext: Hamlet is a tragedy .*\n\nQuestion: Who wrote Hamlet\?\n\nAnswer:$/s,
        );
        const closed = qs.find(q => q.phrasing === 'closed')!;
        assert.equal(closed.messages[0]!.content, 'You are a helpful assistant.');
        assert.doesNotMatch(closed.messages.map(m => m.content).join('\n'), /Context:/);
    });

    it("prompt opinion: the authors' wording — their instruction, the passage as what Bob said, the question in Bob's opinion", async () => {
        const { qs } = await messages('prompt opinion');
        const seed = qs.find(q => q.phrasing === 'seed')!;
        assert.equal(
            seed.messages.at(-1)!.content,
            'Instruction: read the given information and answer the corresponding question. Only output the answer without other context words.\n\nBob said, "Hamlet is a tragedy written by William Shakespeare around 1600."\nQ: Who wrote Hamlet in Bob\'s opinion based on the given text?',
        );
    });

    it('demos RELATION: few-shot demonstrations from the demonstration items, answered with their answer only', async () => {
        const { qs, diagnostics } = await messages('demos Demo', 'few_shot(2)');
        assert.deepEqual(
            diagnostics.filter(d => d.severity === 'error'),
            [],
        );
        const seed = qs.find(q => q.phrasing === 'seed')!;
        assert.deepEqual(
            seed.messages.map(m => m.role),
            ['user', 'assistant', 'user', 'assistant', 'user'],
        );
        assert.match(seed.messages[0]!.content, /Context: Hello is a song by Adele/);
        assert.equal(seed.messages[1]!.content, 'Adele');
        assert.equal(seed.messages[3]!.content, 'Paris');
    });
});
