import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from './command.js';
import { UsageError, type ParsedArgs } from '../args.js';
import { print } from '../print.js';
import { cliCommand } from '../../core/invocation.js';

/** The example a new project starts from: the movie spec and its CSV (shipped in the package as examples/movie). */
const EXAMPLE = ['movie.probe', path.join('data', 'movies.csv')];

/** examples/movie of the package this runs from (the bundle in dist/, or the sources under src/cli/commands/). */
function exampleFolder(): string {
    let dir = path.dirname(fileURLToPath(import.meta.url));
    for (let i = 0; i < 4; i++, dir = path.dirname(dir)) {
        const candidate = path.join(dir, 'examples', 'movie');
        if (fs.existsSync(path.join(candidate, 'movie.probe'))) return candidate;
    }
    throw new Error('the example spec (examples/movie) is missing from this installation');
}

export const init: Command = {
    summary: 'Write an example spec and its data into a folder, to start from.',
    options: ['help'],
    usage: `halluprobe init [folder]

Writes movie.probe (relations, FDs, three probes, an offline simulated model and a suite) and data/movies.csv
into the folder (default: the current one), then prints the next commands: check, run, report. Existing files
are never overwritten.
Exit status: 0 written, 1 a file is already there, 2 bad usage.`,
    async run(args: ParsedArgs) {
        if (args.positional.length > 1) throw new UsageError(`one folder expected.\n\n${this.usage}`);
        const folder = path.resolve(args.positional[0] ?? '.');
        const from = exampleFolder();
        const taken = EXAMPLE.filter(f => fs.existsSync(path.join(folder, f)));
        if (taken.length > 0) {
            print(
                `halluprobe init: ${taken.map(f => path.join(folder, f)).join(', ')} already exists; nothing written. Choose an empty folder: ${cliCommand()} init <folder>`,
            );
            return 1;
        }
        for (const f of EXAMPLE) {
            fs.mkdirSync(path.dirname(path.join(folder, f)), { recursive: true });
            // The repository's comment about its shared data folder means nothing in the user's project.
            const text = fs.readFileSync(path.join(from, f), 'utf8').replace(/^\/\/ Point `source movies` at \.\.\/.*\n/m, '');
            fs.writeFileSync(path.join(folder, f), text);
        }
        const spec = path.relative(process.cwd(), path.join(folder, 'movie.probe')) || 'movie.probe';
        const cli = cliCommand();
        print(`Wrote ${EXAMPLE.map(f => path.relative(process.cwd(), path.join(folder, f))).join(' and ')}.`);
        print('Next:');
        print(`  ${cli} check ${spec}`);
        print(`  ${cli} run ${spec}`);
        print(`  ${cli} report --db ${path.join(path.dirname(spec), '.halluprobe', 'results.db')}`);
        return 0;
    },
};
