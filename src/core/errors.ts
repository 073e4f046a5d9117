/**
 * The one error shape of the engine: where (when there is a place), a code, what is wrong, and what to do about it.
 * Language, data, generation, models, runs and reports all report problems this way; the faces only print or
 * show them. A problem that must stop an engine step is thrown as a `HalluProbeError` carrying its problems.
 */
import * as path from 'node:path';
import type { SpecDiagnostic } from './spec/model.js';
import type { Problem } from './problem.js';

export type { Problem } from './problem.js';

export class HalluProbeError extends Error {
    readonly problems: Problem[];
    constructor(problems: Problem | Problem[]) {
        const list = Array.isArray(problems) ? problems : [problems];
        super(list.map(p => problemText(p)).join('\n'));
        this.problems = list;
        this.name = 'HalluProbeError';
    }
}

export function problem(code: string, message: string, remedy?: string, location?: Problem['location']): Problem {
    const p: Problem = { severity: 'error', code, message };
    if (remedy) p.remedy = remedy;
    if (location) p.location = location;
    return p;
}

/** A problem the step goes on after (it falls back or shows what there is): `problem` at severity warning. */
export function warning(code: string, message: string, remedy?: string, location?: Problem['location']): Problem {
    return { ...problem(code, message, remedy, location), severity: 'warning' };
}

/** A language or data diagnostic as a problem (its message carries the remedy). */
export function fromDiagnostic(d: SpecDiagnostic): Problem {
    return {
        severity: d.severity === 'error' ? 'error' : 'warning',
        code: d.code,
        message: d.message,
        location: { file: d.file, range: d.range },
    };
}

/** A problem's message and remedy as one sentence, where it becomes part of another message (no place, no code). */
export function problemWords(p: Problem): string {
    return p.remedy ? `${p.message} ${p.remedy}` : p.message;
}

/** `file:line:column error [code] message Remedy` — paths relative to `cwd` when inside it. */
export function problemText(p: Problem, cwd = process.cwd()): string {
    let where = '';
    if (p.location) {
        const rel = path.relative(cwd, p.location.file);
        const file = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p.location.file;
        where = p.location.range
            ? `${file}:${p.location.range.start.line + 1}:${p.location.range.start.character + 1} `
            : `${file}: `;
    }
    return `${where}${p.severity} [${p.code}] ${problemWords(p)}`;
}

/** Problems that mean the request named something that is not there (a command line's usage errors). */
export const NAMING_CODES: ReadonlySet<string> = new Set(['unknown-suite', 'unknown-model', 'unknown-run', 'no-runs']);

/**
 * What the system said when a write or read failed for an ordinary reason (a full disk, a read-only or
 * unwritable folder, a damaged database): a problem with a remedy, never an "internal error". Undefined for
 * anything else, which is a bug.
 */
export function ordinaryProblem(e: unknown): Problem | undefined {
    const code = String((e as { code?: unknown }).code ?? '');
    const detail = e instanceof Error ? e.message : String(e);
    if (/^SQLITE_FULL|^ENOSPC$|^EDQUOT$/.test(code))
        return problem(
            'disk-full',
            `the disk is full (${detail}).`,
            'Free some space (or pass --db on another disk) and run again: answers already stored are kept, and a resumed run asks only the rest.',
        );
    if (/^SQLITE_READONLY|^EROFS$/.test(code))
        return problem(
            'read-only',
            `a file could not be written: the disk or file is read-only (${detail}).`,
            'Pass --db with a file on a writable disk, or make the file writable.',
        );
    if (/^EACCES$|^EPERM$|^ENOTDIR$/.test(code))
        return problem('not-writable', `a file or folder could not be used (${detail}).`, 'Check the path and its permissions.');
    if (code === 'STORE_UNREACHABLE')
        return problem(
            'store-unreachable',
            `${detail}.`,
            'Check that the PostgreSQL server is up and reachable, then run again: answers already stored are kept, and a resumed run asks only the rest.',
        );
    if (/^SQLITE_CORRUPT|^SQLITE_NOTADB|^SQLITE_IOERR/.test(code))
        return problem(
            'bad-store',
            `the results store is damaged or unreadable (${detail}).`,
            'Restore it from a copy, recover it with `sqlite3 FILE .recover`, or pass --db with a new file.',
        );
    return undefined;
}
