/** Temporary folders for tests and benchmarks, removed when the process exits (pass or fail). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const made: string[] = [];
let hooked = false;

export function tempDir(prefix = 'hp-'): string {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    made.push(dir);
    if (!hooked) {
        hooked = true;
        process.once('exit', () => {
            for (const d of made) rmSync(d, { recursive: true, force: true });
        });
    }
    return dir;
}
