/**
 * A deterministic reader model for the local OpenAI-compatible server (the model reader, `read_with`): it answers
 * the reading requests of src/core/verify/model-read.ts as a careful model would, from the answer (a JSON string
 * value of the request) — the option named, the short answer's words, the claims of simulated answers
 * ("<subject> <relation> <object>." sentences) — in the JSON the request asks for. `contrary` makes it misread on
 * purpose (the next option, "Nobody", every claim denied) so that a test can tell whose reading decided.
 */
import type { RequestInfo } from './openai-server.js';

/** The relation phrases of the example specs' simulated open answers ("Avatar directed by James Cameron."). */
export const SIMULATED_RELATIONS = ['directed by', 'release year', 'birth year', 'star'];

/** The question or the answer of a reading request (a JSON object of string values). */
function block(text: string, field: 'question' | 'answer'): string {
    try {
        const value = (JSON.parse(text) as Record<string, unknown>)[field];
        return typeof value === 'string' ? value : '';
    } catch {
        return '';
    }
}

export function readerModel(
    contrary: () => boolean,
    relations: readonly string[] = SIMULATED_RELATIONS,
): (info: RequestInfo) => string {
    return info => {
        const system = info.body.messages.find(m => m.role === 'system')?.content ?? '';
        const answer = block(info.question, 'answer');
        const question = block(info.question, 'question');
        const flip = contrary();
        if (system.includes('"claims"')) {
            const claims = answer
                .split(/(?<=\.)\s+/)
                .map(s => s.trim().replace(/\.$/, ''))
                .filter(Boolean)
                .flatMap(sentence => {
                    const phrase = relations.find(r => sentence.includes(` ${r} `));
                    if (!phrase) return [];
                    const at = sentence.indexOf(` ${phrase} `);
                    return [
                        {
                            subject: sentence.slice(0, at),
                            relation: phrase,
                            object: sentence.slice(at + phrase.length + 2),
                            polarity: flip ? 'negative' : 'positive',
                            quote: sentence,
                        },
                    ];
                });
            return JSON.stringify({ claims });
        }
        if (system.includes('"options"')) {
            const count = (question.match(/^Option \d+:/gm) ?? []).length;
            const named = /Option (\d+)/i.exec(answer);
            if (named) {
                const n = Number(named[1]);
                return JSON.stringify({ answer: 'option', options: [flip ? (n % count) + 1 : n], quote: named[0] });
            }
            if (/none of|all options are correct|each option is correct/i.test(answer))
                return JSON.stringify({ answer: 'none', options: [], quote: answer.trim() });
            return JSON.stringify({ answer: 'unsure', options: [], quote: answer.trim().slice(0, 40) });
        }
        if (system.includes('"text"')) {
            if (flip) return JSON.stringify({ answer: 'answer', text: 'Nobody' });
            if (/not sure|don't know|cannot/i.test(answer)) return JSON.stringify({ answer: 'unsure', text: '' });
            return JSON.stringify({ answer: 'answer', text: answer.trim().replace(/\.$/, '') });
        }
        const first = /[A-Za-z]+/.exec(answer)?.[0] ?? '';
        const label = flip ? 'no' : /^yes$/i.test(first) ? 'yes' : /^no$/i.test(first) ? 'no' : 'unsure';
        return JSON.stringify({ answer: label, quote: first || answer.slice(0, 20) });
    };
}
