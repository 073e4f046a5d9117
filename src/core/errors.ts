/**
 * The one error shape of the engine: where (when there is a place), a code, what is wrong, and what to do about it.
 * Language, data, generation, models, runs and reports all report problems this way; the faces only print or
 * show them. A problem that must stop an engine step is thrown as a `HalluProbeError` carrying its problems.
 */
import * as path from 'node:path';
import type { Range } from './spec/model.js';
import type { SpecDiagnostic } from './spec/model.js';

export interface Problem {
    severity: 'error' | 'warning';
    code: string;
    message: string;
    /** What the user can do; omitted only when the message already says it. */
    remedy?: string;
    location?: { file: string; range?: Range };
}

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

/** A language or data diagnostic as a problem (its message carries the remedy). */
export function fromDiagnostic(d: SpecDiagnostic): Problem {
    return { severity: d.severity === 'error' ? 'error' : 'warning', code: d.code, message: d.message, location: { file: d.file, range: d.range } };
}

/** `file:line:column error [code] message Remedy` — paths relative to `cwd` when inside it. */
export function problemText(p: Problem, cwd = process.cwd()): string {
    let where = '';
    if (p.location) {
        const rel = path.relative(cwd, p.location.file);
        const file = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p.location.file;
        where = p.location.range ? `${file}:${p.location.range.start.line + 1}:${p.location.range.start.character + 1} ` : `${file}: `;
    }
    return `${where}${p.severity} [${p.code}] ${p.message}${p.remedy ? ` ${p.remedy}` : ''}`;
}

/** Problems that mean the request named something that is not there (a command line's usage errors). */
export const NAMING_CODES: ReadonlySet<string> = new Set(['unknown-suite', 'unknown-model', 'unknown-run', 'no-runs']);
