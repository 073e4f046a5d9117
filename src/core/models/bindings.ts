/**
 * Where a custom key variable ($MY_KEY) was first confirmed to go, kept in the user's config folder
 * (never the workspace: a spec must not be able to pre-approve its own endpoint). Names and origins only.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { KeyBindings } from './secrets.js';
import { HalluProbeError, problem } from '../errors.js';

/** $HALLUPROBE_CONFIG_DIR, else $XDG_CONFIG_HOME/halluprobe, else ~/.config/halluprobe. */
function configDir(env: NodeJS.ProcessEnv = process.env): string {
    return env.HALLUPROBE_CONFIG_DIR || path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'halluprobe');
}

export function fileKeyBindings(file = path.join(configDir(), 'key-bindings.json')): KeyBindings {
    const read = (): Record<string, string> => {
        let text: string;
        try {
            text = fs.readFileSync(file, 'utf8');
        } catch {
            return Object.create(null) as Record<string, string>;
        }
        let v: unknown;
        // A damaged file is the user's to mend: overwriting it would forget every binding it held.
        try {
            v = JSON.parse(text);
        } catch (e) {
            throw new HalluProbeError(
                problem(
                    'bad-config',
                    `${file} is not valid JSON (${(e as Error).message}).`,
                    'Mend it (it maps "$VARIABLE" to the origin its key may go to) or delete it to confirm the endpoints again.',
                    { file },
                ),
            );
        }
        return v && typeof v === 'object' && !Array.isArray(v)
            ? Object.assign(Object.create(null) as Record<string, string>, v)
            : (Object.create(null) as Record<string, string>);
    };
    return {
        get: source => {
            const v = read()[source];
            return typeof v === 'string' ? v : undefined;
        },
        set: (source, origin) => {
            const all = read();
            if (all[source]) return; // the first confirmed origin stays the binding
            all[source] = origin;
            try {
                fs.mkdirSync(path.dirname(file), { recursive: true });
                fs.writeFileSync(file, JSON.stringify(all, null, 2), { mode: 0o600 });
            } catch (e) {
                throw new HalluProbeError(
                    problem(
                        'config-unwritable',
                        `cannot remember that ${source} may go to ${origin}: ${path.dirname(file)} cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
                        'Make that folder writable, or set HALLUPROBE_CONFIG_DIR to a folder you can write.',
                        { file },
                    ),
                );
            }
        },
    };
}
