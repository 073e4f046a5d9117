/**
 * halluprobe — the engine from a terminal or CI. Each subcommand lives in its own file under commands/.
 */
import { checkOptions, commandHint, parseArgs, UsageError } from './args.js';
import { cliCommand } from '../core/invocation.js';
import { COMMANDS } from './commands/index.js';
import { HalluProbeError, NAMING_CODES, ordinaryProblem, problemText } from '../core/errors.js';
import { print, printError } from './print.js';

const USAGE = `halluprobe <command> [options]

Commands:
${Object.entries(COMMANDS)
    .map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`)
    .join('\n')}

Run "halluprobe <command> --help" for a command's options.`;

export async function main(argv: string[]): Promise<number> {
    const [name, ...rest] = argv;
    if (!name || name === '--help' || name === '-h' || name === 'help') {
        print(USAGE);
        return name ? 0 : 2;
    }
    if (name === '--version' || name === '-v') {
        print('halluprobe 0.1.0');
        return 0;
    }
    const command = COMMANDS[name];
    if (!command) {
        printError(`halluprobe: unknown command "${name}".${commandHint(name, Object.keys(COMMANDS))}\n\n${USAGE}`);
        return 2;
    }
    const args = parseArgs(rest);
    if (args.flags.help) {
        print(command.usage);
        return 0;
    }
    try {
        checkOptions(args, command.options);
        return await command.run(args);
    } catch (e) {
        if (e instanceof UsageError) {
            printError(
                `halluprobe ${name}: ${e.message}${/^unknown option/.test(e.message) ? `\nThe options of ${name}: ${cliCommand()} ${name} --help` : ''}`,
            );
            return 2;
        }
        if (e instanceof HalluProbeError) {
            for (const p of e.problems)
                printError(p.location ? problemText(p) : `halluprobe ${name}: ${p.message}${p.remedy ? ` ${p.remedy}` : ''}`);
            return e.problems.every(p => NAMING_CODES.has(p.code)) ? 2 : 1;
        }
        // A full disk, a read-only store, a damaged page: the user's to mend, with a remedy (exit 1).
        const ordinary = ordinaryProblem(e);
        if (ordinary) {
            printError(`halluprobe ${name}: ${ordinary.message} ${ordinary.remedy ?? ''}`.trimEnd());
            return 1;
        }
        // Bad input is reported by the commands themselves; reaching here is a bug in HalluProbe.
        printError(`halluprobe ${name}: internal error: ${e instanceof Error ? e.message : String(e)}`);
        if (process.env.HALLUPROBE_DEBUG) printError(e);
        return 70;
    }
}

const invokedDirectly = process.argv[1] !== undefined && /(cli\.mjs|main\.ts|halluprobe(\.js)?)$/.test(process.argv[1]);
if (invokedDirectly) {
    // `halluprobe report … | head -c1`: the reader went away, so there is no one left to tell; stop quietly.
    for (const stream of [process.stdout, process.stderr]) {
        stream.on('error', (e: NodeJS.ErrnoException) => {
            if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
            else throw e;
        });
    }
    main(process.argv.slice(2)).then(code => {
        process.exitCode = code;
    });
}
