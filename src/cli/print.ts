/**
 * Everything the CLI prints goes through here: data cells, model answers and endpoint error bodies reach these
 * lines, so control characters are escaped (core/terminal.ts). Only the progress bar writes raw sequences.
 */
import { escapeTerminal } from '../core/terminal.js';

export function print(...parts: unknown[]): void {
    console.log(escapeTerminal(parts.map(String).join(' ')));
}

export function printError(...parts: unknown[]): void {
    console.error(escapeTerminal(parts.map(String).join(' ')));
}

/** Raw writes of report text to stdout, escaped the same way. */
export function writeOut(text: string): void {
    process.stdout.write(escapeTerminal(text));
}

export function writeErr(text: string): void {
    process.stderr.write(escapeTerminal(text));
}
