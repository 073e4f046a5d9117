/** The real CLI in its own process, as a user runs it. */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from './runner-fixtures.js';

export interface Child { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** Runs `halluprobe ARGS`; `kill` may end it early (it also gets the process id). Trusted hosts are cleared unless `env` sets them. */
export function cli(args: string[], env: NodeJS.ProcessEnv, kill?: (stop: (signal?: NodeJS.Signals) => void, pid: number) => void): Promise<Child> {
    return new Promise(resolve => {
        const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src', 'cli', 'main.ts'), ...args], {
            cwd: repoRoot, env: { ...process.env, HALLUPROBE_TRUSTED_HOSTS: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', d => { stdout += d; });
        child.stderr.on('data', d => { stderr += d; });
        kill?.((signal = 'SIGKILL') => child.kill(signal), child.pid!);
        child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
}
