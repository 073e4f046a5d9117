/** Small hand-made questions for runner tests and benchmarks (the generator has its own tests). */
import type { Question } from '../../src/core/probes/question.js';

const none = { file: 'fixture.probe', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };

/** `n` binary questions about movie i with distinct text; gold alternates yes / no. */
export function movieQuestions(n: number, prefix = 'q'): Question[] {
    return Array.from({ length: n }, (_, i) => {
        const question = `Is there a movie, released in ${1950 + (i % 70)}, starring Star ${i} where Director ${i} is the director? (${prefix}${i})`;
        const gold = i % 2 === 0 ? 'yes' : 'no';
        return {
            id: `${prefix}${i}`,
            probe: 'movie_binary',
            kind: 'binary',
            phrasing: gold === 'yes' ? 'basic' : 'negated',
            variant: 'zero_shot',
            question,
            messages: [{ role: 'user', content: question }],
            gold,
            keywords: [[{ relation: 'Movie', attribute: 'title', value: `Movie ${i}` }]],
            entity: { relation: 'Movie', key: [`Movie ${i}`, String(1950 + (i % 70))] },
            source: {
                spec: 'fixture.probe',
                probe: none,
                constraints: [],
                rows: [{ relation: 'Movie', key: [`Movie ${i}`], file: 'movies.csv', line: i + 2 }],
            },
            path: { nodes: [], edges: [] },
        } satisfies Question;
    });
}
