/**
 * Open answers with KG context (issue 17):
 *   - the data graph of generated movie data with ≥ 1M edges (build time, memory of the graph);
 *   - retrieval per question — K-hop (K = 2) + personalised PageRank + each context form — over 300
 *     questions (a movie and its director): p50 / p95 ms; goal ≤ 50 ms at p95;
 *   - claim checking per second: simulated answers from perturbed contexts (half the edges rewired),
 *     split, linked and checked against the data and the context.
 * Data: 200,000 movies (year, genre, length values; FKs to 100,000 people as star and 20,000 directors),
 * people with a birth year: 1.12M edges. Values are shared nodes, so a year is a hub of ~2,800 movies.
 */
import type { LoadedData } from '../src/core/data/types.js';
import type { AttrType, SpecModel } from '../src/core/spec/model.js';
import { buildDataGraph } from '../src/core/kg/data-graph.js';
import { retrieve, type RetrievalSettings } from '../src/core/families/open/retrieve.js';
import { perturb } from '../src/core/families/open/perturb.js';
import { simulatedOpenAnswer } from '../src/core/families/open/simulate.js';
import { dataFacts, verifyOpenAnswer } from '../src/core/families/open/check.js';
import { measure, report, type BenchRow } from './support.js';
import { int, loc, relation, table, text } from './tables.js';

const MOVIES = 200_000, PEOPLE = 100_000, DIRECTORS = 20_000;

const MOVIE: [string, AttrType][] = [['title', text], ['year', int], ['genre', text], ['length', int], ['director', text], ['star', text]];
const PERSON: [string, AttrType][] = [['name', text], ['birth_year', int]];

function workload(): { spec: SpecModel; data: LoadedData } {
    const movie = table('Movie', MOVIE, MOVIES, (r, c) => [`Movie ${r}`, 1950 + (r % 70), `Genre ${r % 20}`, 80 + (r % 120), `Director ${(r * 7) % DIRECTORS}`, `Person ${(r * 13) % PEOPLE}`][c]!);
    const person = table('Person', PERSON, PEOPLE, (r, c) => [`Person ${r}`, 1920 + (r % 80)][c]!);
    const director = table('Director', PERSON, DIRECTORS, (r, c) => [`Director ${r}`, 1910 + (r % 80)][c]!);
    const fk = (name: string, from: string, to: string) => ({ name, id: name, from: { relation: 'Movie', attributes: [from] }, to: { relation: to, attributes: ['name'] }, loc });
    const spec: SpecModel = {
        files: [], sources: [], fds: [], aliases: [], probes: [], models: [], suites: [],
        relations: [relation('Movie', MOVIE, ['title']), relation('Person', PERSON, ['name']), relation('Director', PERSON, ['name'])],
        fks: [fk('directed_by', 'director', 'Director'), fk('starring', 'star', 'Person')],
    };
    return { spec, data: { tables: new Map([['Movie', movie], ['Person', person], ['Director', director]]), diagnostics: [] } };
}

const quantile = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]!; };

async function main(): Promise<void> {
    const rows: BenchRow[] = [];
    const { spec, data } = workload();
    const before = process.memoryUsage().rss;
    const built = await measure(() => buildDataGraph(spec, data));
    const graph = built.result;
    const graphMB = (process.memoryUsage().rss - before) / (1 << 20);
    rows.push({ bench: 'open', case: `data graph build (${graph.nodeCount.toLocaleString('en')} nodes, ${graph.edgeCount.toLocaleString('en')} edges)`, value: built.ms, unit: 'ms', peakMB: built.peakMB });
    rows.push({ bench: 'open', case: 'data graph memory (RSS growth while building)', value: graphMB, unit: 'MB' });

    // Entity nodes come first, relation by relation in table order: movie m is node m, its director after the people.
    const questions = Array.from({ length: 300 }, (_, i) => {
        const m = (i * 661) % MOVIES;
        return [m, MOVIES + PEOPLE + ((m * 7) % DIRECTORS)];
    });
    if (graph.id(questions[1]![0]!) !== 'Movie(Movie 661)' || graph.id(questions[1]![1]!) !== `Director(Director ${(661 * 7) % DIRECTORS})`) throw new Error('node layout changed');
    const cases: [string, Partial<RetrievalSettings>][] = [
        ['triplets', { form: 'triplets' }], ['paths', { form: 'paths' }], ['subgraph', { form: 'subgraph' }],
        // Hubs expanded too: a year's ~2,900 movies and a length's ~1,700 enter the neighbourhood.
        ['subgraph, hubs ≤ 5,000 edges expanded', { form: 'subgraph', maxDegree: 5000 }],
    ];
    for (const [name, settings] of cases) {
        const times: number[] = [];
        let nodes = 0;
        const run = await measure(() => {
            for (const seeds of questions) {
                const t0 = performance.now();
                const r = retrieve(graph, seeds, settings);
                times.push(performance.now() - t0);
                nodes += r.neighbourhood.nodes;
            }
        });
        const p95 = quantile(times, 0.95);
        rows.push({ bench: 'open', case: `retrieval ${name}: p50 (K-hop ${Math.round(nodes / questions.length)} nodes avg)`, value: quantile(times, 0.5), unit: 'ms' });
        rows.push({ bench: 'open', case: `retrieval ${name}: p95`, value: p95, unit: 'ms', goal: '≤ 50 ms', met: p95 <= 50, peakMB: run.peakMB });
    }

    const prepared = questions.slice(0, 100).map(seeds => {
        const r = retrieve(graph, seeds, { triplets: 20 });
        const ctx = perturb(r.context, { kind: 'rewire', level: 0.5, seed: 1, relations: graph.relations, pool: r.scored });
        return { r, ctx, answer: simulatedOpenAnswer(ctx, { follows: 0.9, invents: 0.2, seed: 1, pool: r.scored }) };
    });
    let claims = 0;
    const checking = await measure(() => {
        for (let round = 0; round < 5; round++) {
            for (const { r, ctx, answer } of prepared) {
                claims += verifyOpenAnswer({ answer, nodes: [...r.scored.nodes, ...ctx.nodes], relations: graph.relations, data: dataFacts(graph, r.index), context: ctx }).length;
            }
        }
    });
    rows.push({ bench: 'open', case: `claim checking (${claims.toLocaleString('en')} claims, data + context)`, value: claims / (checking.ms / 1000), unit: 'claims/s', peakMB: checking.peakMB });
    report(rows);
}

void main();
