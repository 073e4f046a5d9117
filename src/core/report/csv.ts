/** One CSV field as every CSV the engine writes has it (reports, compare, the facts table). */

/** RFC 4180 field; a leading =, +, - or @ is prefixed with ' so spreadsheets do not run model text as a formula. */
export function csvField(v: unknown): string {
    let s = v === null || v === undefined ? '' : String(v);
    if (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
