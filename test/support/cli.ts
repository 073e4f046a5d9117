/**
 * The CLI run in this process, with what it printed through console captured (not process.stdout itself: the
 * test runner speaks through it; reports are written with --out).
 */
import { main } from '../../src/cli/main.js';

export interface CliResult {
    code: number;
    out: string;
    err: string;
    /** stdout and stderr in order */ text: string;
}

export async function runCli(...argv: string[]): Promise<CliResult> {
    const out: string[] = [],
        err: string[] = [],
        all: string[] = [];
    const log = console.log,
        error = console.error;
    console.log = (...a: unknown[]) => {
        const s = a.join(' ');
        out.push(s);
        all.push(s);
    };
    console.error = (...a: unknown[]) => {
        const s = a.join(' ');
        err.push(s);
        all.push(s);
    };
    try {
        const code = await main(argv);
        return { code, out: out.join('\n'), err: err.join('\n'), text: all.join('\n') };
    } finally {
        console.log = log;
        console.error = error;
    }
}
