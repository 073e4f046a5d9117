/**
 * The preview table's pure view-model at 100,000 questions: the filter that runs on every keystroke and
 * the virtual window that decides how many rows exist in the DOM (activation time and the .vsix size are
 * measured by the e2e tier and `npm run package`).
 */
import { measure, report, type BenchRow } from './support.js';
import { filterRows, rowText, visibleWindow } from '../webview/preview/model.js';
import type { PreviewRow } from '../src/protocol/webview.js';

const N = 100_000;
const directors = ['James Cameron', 'Gore Verbinski', 'Sam Mendes', 'Christopher Nolan', 'Peter Jackson'];
const rows: PreviewRow[] = Array.from({ length: N }, (_, i) => ({
    id: `q${i}`, probe: i % 3 === 0 ? 'director_decade' : 'movie_binary', kind: i % 3 === 0 ? 'path' : 'binary', phrasing: i % 2 ? 'basic' : 'negated',
    question: `Is there a movie, released in ${1950 + (i % 70)}, starring Actor ${i} where ${directors[i % directors.length]} is the director?`,
    gold: i % 2 ? 'yes' : 'no', keywords: [[`Movie title ${i}`]], tokens: 40 + (i % 20),
    source: { file: '/data/movies.csv', line: i + 2, label: `movies.csv:${i + 2}` },
}));

const rowsOut: BenchRow[] = [];
const texts = await measure(() => rows.map(rowText));
rowsOut.push({ bench: 'extension', case: 'preview: index 100k rows for filtering (once per data)', value: texts.ms, unit: 'ms', goal: '< 500 ms', met: texts.ms < 500, peakMB: texts.peakMB });

for (const filter of ['cameron', 'probe:movie_binary gold:no', 'actor 9999']) {
    const mine = await measure(() => { for (let k = 0; k < 5; k++) filterRows(rows, filter, texts.result); });
    const naive = await measure(() => { for (let k = 0; k < 5; k++) rows.filter(r => JSON.stringify(r).toLowerCase().includes(filter.split(' ')[0]!.replace(/^\w+:/, ''))); });
    const per = mine.ms / 5, ref = naive.ms / 5;
    rowsOut.push({ bench: 'extension', case: `preview: filter 100k rows "${filter}"`, value: per, unit: 'ms', reference: ref, referenceName: 'JSON.stringify + includes', ratio: per / ref, goal: '< 50 ms per keystroke', met: per < 50 });
}

let maxRows = 0;
const win = await measure(() => {
    for (let top = 0; top < N * 28; top += 997) {
        const w = visibleWindow(top, 900, 28, N);
        maxRows = Math.max(maxRows, w.last - w.first);
    }
});
rowsOut.push({ bench: 'extension', case: 'preview: rows in the DOM while scrolling 100k (900 px viewport)', value: maxRows, unit: 'rows', goal: '≤ 60 rows', met: maxRows <= 60 });
rowsOut.push({ bench: 'extension', case: 'preview: window computations per second', value: Math.round((N * 28 / 997) / (win.ms / 1000)), unit: '/s' });
report(rowsOut);
