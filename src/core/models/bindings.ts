/**
 * Where a custom key variable ($MY_KEY) was first confirmed to go, kept in the user's config folder
 * (never the workspace: a spec must not be able to pre-approve its own endpoint). Names and origins only.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { KeyBindings } from './secrets.js';

/** $HALLUPROBE_CONFIG_DIR, else $XDG_CONFIG_HOME/halluprobe, else ~/.config/halluprobe. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
    return env.HALLUPROBE_CONFIG_DIR || path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'halluprobe');
}

export function fileKeyBindings(file = path.join(configDir(), 'key-bindings.json')): KeyBindings {
    const read = (): Record<string, string> => {
        try {
            const v: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
            return v && typeof v === 'object' ? Object.assign(Object.create(null) as Record<string, string>, v) : Object.create(null) as Record<string, string>;
        } catch { return Object.create(null) as Record<string, string>; }
    };
    return {
        get: source => { const v = read()[source]; return typeof v === 'string' ? v : undefined; },
        set: (source, origin) => {
            const all = read();
            if (all[source]) return; // the first confirmed origin stays the binding
            all[source] = origin;
            fs.mkdirSync(path.dirname(file), { recursive: true });
            fs.writeFileSync(file, JSON.stringify(all, null, 2), { mode: 0o600 });
        },
    };
}
