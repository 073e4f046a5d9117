// `npm start`: the movie example end to end — generate the questions, ask the model, store and verify the
// answers, write the HTML report — and say where everything is. The model is HALLUPROBE_MODEL (e.g.
// openai:gpt-4o-mini with OPENAI_API_KEY set, or ollama:llama3.1); without one, the offline simulator answers,
// and every line that shows its results says so.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const spec = path.join(root, 'examples', 'movie', 'movie.probe');
const outDir = path.join(root, 'examples', 'movie', '.halluprobe');
const db = path.join(outDir, 'results.db');
const report = path.join(outDir, 'report.html');
const cli = path.join(root, 'bin', 'halluprobe.js');

const KEY_ENV = { openai: 'OPENAI_API_KEY', openrouter: 'OPENROUTER_API_KEY', azure: 'AZURE_OPENAI_API_KEY' };

function chooseModel() {
    const wanted = (process.env.HALLUPROBE_MODEL ?? '').trim();
    if (!wanted || wanted === 'offline')
        return {
            args: [],
            label: 'the offline simulator (no real model: set HALLUPROBE_MODEL=openai:gpt-4o-mini and OPENAI_API_KEY to ask one)',
        };
    const provider = wanted.split(':')[0];
    const keyEnv = KEY_ENV[provider];
    if (keyEnv && !process.env[keyEnv]) {
        console.error(`HALLUPROBE_MODEL=${wanted} needs ${keyEnv} in the environment; using the offline simulator instead.`);
        return { args: [], label: 'the offline simulator (fallback: no API key)' };
    }
    return { args: ['--model', wanted], label: wanted };
}

const model = chooseModel();
console.log(`HalluProbe: the movie example with ${model.label}.\n`);
const run = spawnSync(process.execPath, [cli, 'run', spec, '--db', db, ...model.args], { stdio: 'inherit', cwd: root });
if (run.status !== 0 && !existsSync(db)) {
    console.error(`\nThe run did not complete (exit ${run.status ?? run.signal}); see the messages above.`);
    process.exit(run.status || 1);
}

const rep = spawnSync(process.execPath, [cli, 'report', '--db', db, '--format', 'html', '--out', report], {
    stdio: ['ignore', 'inherit', 'pipe'],
    cwd: root,
    encoding: 'utf8',
});
console.log(`\nResults store: ${path.relative(process.cwd(), db) || db}`);
if (rep.status === 0 && existsSync(report)) console.log(`Report:        ${path.relative(process.cwd(), report) || report}`);
else console.log(`Report:        not written (${(rep.stderr || `exit ${rep.status}`).trim().split('\n')[0]})`);
console.log(`List runs:     npx halluprobe runs --db ${path.relative(process.cwd(), db) || db}`);
process.exit(run.status ?? 1);
