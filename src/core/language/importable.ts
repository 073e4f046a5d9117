/**
 * Which files a spec may import or be: regular `.probe` files of a sane size. Anything else (a text file,
 * /etc/passwd, /dev/zero, a 2 GB log) is a located error at the import, never a crash or a hang.
 */
import { statSync } from 'node:fs';

export const SPEC_EXTENSION = '.probe';
/** Larger spec files are refused: a spec is hand-written text, and the parser holds it all in memory. */
const MAX_SPEC_BYTES = 8 * 1024 * 1024;

export interface FileFacts {
    isFile: boolean;
    isDirectory: boolean;
    size?: number;
}

/** Why `file` cannot be read as a spec (a sentence with the remedy), or undefined when it can. */
export function specFileProblem(file: string, facts: FileFacts | undefined): string | undefined {
    if (!facts) return undefined; // missing: the caller says "not found"
    if (facts.isDirectory) return undefined; // the caller says "is a folder"
    if (!facts.isFile) return `${file} is not a regular file (a device, pipe or socket); import a ${SPEC_EXTENSION} file.`;
    if (!file.toLowerCase().endsWith(SPEC_EXTENSION))
        return `${file} is not a spec: only ${SPEC_EXTENSION} files can be imported. Rename it, or copy its declarations into a ${SPEC_EXTENSION} file.`;
    if (facts.size !== undefined && facts.size > MAX_SPEC_BYTES)
        return `${file} is ${Math.round(facts.size / 1048576)} MB; specs larger than ${MAX_SPEC_BYTES / 1048576} MB are not read. Keep data in a source (csv, sqlite), not in the spec.`;
    return undefined;
}

/** A file's size in bytes (Langium's file system stat has none), undefined when it cannot be read. */
export function fileSize(file: string): number | undefined {
    try {
        return statSync(file).size;
    } catch {
        return undefined;
    }
}
