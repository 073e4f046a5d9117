/**
 * Verification and reports (issue 5):
 *   - verdicts per second on 100,000 responses with aliases (name_parts on the director, an alias list on
 *     titles) and contradiction detection against the whole title domain — goal ≥ 50,000/s on one core;
 *   - report generation for a 100,000-question run in each format (metrics included) — goal < 5 s each.
 * Responses are GPT-3.5's real answers from ../shared/data/erbench/responses/gpt35_movie.log, cycled over
 * the 1,500 movies (the text is kept, so rationales are real text of real length); without ../shared a
 * synthetic set of the same shape is used and the case names say so.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, report, type BenchRow } from './support.js';
import { createVerifyContext, verify } from '../src/core/verify/verify.js';
import type { Verdict } from '../src/core/verify/types.js';
import { buildReport, renderReport, REPORT_FORMATS } from '../src/core/report/index.js';
import type { Question } from '../src/core/probes/question.js';
import { movieData, movieSpec, replayMovieLog, type MovieRow } from '../test/fixtures/verify/erbench-movie.js';

const N = 100_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'data', 'erbench');
const real = existsSync(path.join(root, 'responses', 'gpt35_movie.log'));

function synthetic(): { csv: string; log: string } {
    const rows = ['"",index,common_entity,entity3,entity2,entity1'];
    const log: string[] = [];
    for (let i = 0; i < 1500; i++) {
        rows.push(`${i},${i},Movie Title ${i} Part ${i % 7},${1990 + (i % 30)}.0,Director ${i % 300} Name,Star ${i}`);
        const title = `Movie Title ${i} Part ${i % 7}`;
        log.push(
            `${i}-0th question`,
            `Q: Is there a movie, released in ${1990 + (i % 30)}, starring Star ${i} where Director ${i % 300} Name is the director?`,
            i % 5 === 0
                ? `A:Yes. The movie is "Movie Title ${(i + 1) % 1500} Part ${(i + 1) % 7}".`
                : `A:Yes, it is true. The movie is called "${title}", directed by Director ${i % 300} Name.`,
            'Gold Answer: yes',
            `Gold Entity: ${title}`,
            '',
        );
    }
    return { csv: rows.join('\n'), log: log.join('\n') };
}

function workload(): {
    questions: Question[];
    texts: string[];
    spec: ReturnType<typeof movieSpec>;
    data: ReturnType<typeof movieData>['data'];
} {
    const src = real
        ? {
              csv: readFileSync(path.join(root, 'movie.csv'), 'utf8'),
              log: readFileSync(path.join(root, 'responses', 'gpt35_movie.log'), 'utf8'),
          }
        : synthetic();
    const { data, rows } = movieData(src.csv);
    const replay = replayMovieLog(src.log, rows);
    const spec = movieSpec();
    const loc = spec.relations[0]!.loc;
    spec.aliases.push({
        target: { relation: 'Movie', attribute: 'director' },
        rules: [{ kind: 'normaliser', name: 'name_parts', args: [], loc }],
        loc,
    });
    spec.aliases.push({
        target: { relation: 'Movie', attribute: 'title' },
        rules: [{ kind: 'list', value: 'Avatar', alternatives: ['Avatar (2009)', "James Cameron's Avatar"], loc }],
        loc,
    });
    const byRow = (q: Question): MovieRow => rows.find(r => r.title === q.entity.key[0]) ?? rows[0]!;
    const questions: Question[] = [];
    const texts: string[] = [];
    for (let i = 0; i < N; i++) {
        const base = replay.questions[i % replay.questions.length]!;
        const row = byRow(base);
        // Two keywords per question: the title (contradiction domain: every title) and the director (name_parts).
        questions.push({
            ...base,
            id: `${base.id}#${i}`,
            keywords: [[base.keywords[0]![0]!, { relation: 'Movie', attribute: 'director', value: row.director }]],
        });
        texts.push(replay.answers[i % replay.answers.length]!.text);
    }
    return { questions, texts, spec, data };
}

async function main(): Promise<void> {
    const rows: BenchRow[] = [];
    const w = workload();
    const label = real ? 'gpt35_movie.log answers' : 'synthetic answers (no ../shared)';
    const verdicts: Verdict[] = [];
    // Warm-up on a separate context so the measured run builds its own domain index (included in the time).
    const warm = createVerifyContext(w.spec, w.data);
    for (let i = 0; i < 2000; i++) verify(w.questions[i]!, w.texts[i]!, warm, 'gpt35');
    // The goal is per core: count this process's CPU time (user + system, all its threads: the collector's helper
    // threads count), so other processes sharing the machine do not distort it; wall time is printed beside it.
    const cpu0 = process.cpuUsage();
    const m = await measure(() => {
        const ctx = createVerifyContext(w.spec, w.data);
        for (let i = 0; i < N; i++) verdicts.push(verify(w.questions[i]!, w.texts[i]!, ctx, 'gpt35'));
        return verdicts.length;
    });
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const perSec = N / (cpuMs / 1000);
    const contradicted = verdicts.filter(v => v.hops.some(h => h.status === 'contradicted')).length;
    console.error(
        `verified ${N} in ${cpuMs.toFixed(0)} ms CPU, ${m.ms.toFixed(0)} ms wall (${perSec.toFixed(0)}/s per core, ${(N / (m.ms / 1000)).toFixed(0)}/s wall); ${contradicted} contradicted`,
    );
    rows.push({
        bench: 'verify',
        case: `verdicts per CPU-second, 100k responses, aliases + contradictions (${label})`,
        value: perSec,
        unit: 'verdicts/s',
        goal: '≥ 50,000/s on one core',
        met: perSec >= 50_000,
        peakMB: m.peakMB,
    });

    const input = {
        run: {
            id: 'bench',
            spec: 'movie.probe',
            suite: 'bench',
            started: new Date(0).toISOString(),
            finished: null,
            status: 'completed',
        },
        questions: w.questions,
        answers: w.questions.map((q, i) => ({ questionId: q.id, model: 'gpt35', sample: 0, text: w.texts[i]! })),
        verdicts,
    };
    for (const format of REPORT_FORMATS) {
        const c0 = process.cpuUsage();
        const r = await measure(() => renderReport(buildReport(input), format).length);
        const c = process.cpuUsage(c0);
        const s = (c.user + c.system) / 1e6;
        console.error(
            `${format}: ${(s * 1000).toFixed(0)} ms CPU, ${r.ms.toFixed(0)} ms wall, ${(r.result / 1e6).toFixed(1)} MB`,
        );
        rows.push({
            bench: 'verify',
            case: `report ${format}, 100k questions, metrics included (CPU time; wall ${(r.ms / 1000).toFixed(2)} s)`,
            value: s,
            unit: 's',
            goal: '< 5 s',
            met: s < 5,
            peakMB: r.peakMB,
        });
    }
    report(rows);
}

await main();
