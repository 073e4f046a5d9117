/** The real CLI in its own process, as a user runs it. */
import { spawn } from 'node:child_process';
import { repoRoot } from './runner-fixtures.js';
import { cliArgs } from './cli-path.js';

export interface Child {
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
}

/**
 * Runs `halluprobe ARGS`; `kill` may end it early (it also gets the process id); `cpuSeconds` bounds its CPU time; `watch` sees its stderr as it
 * comes (all of it so far). Trusted hosts are cleared unless `env` sets them.
 */
export function cli(
    args: string[],
    env: NodeJS.ProcessEnv,
    kill?: (stop: (signal?: NodeJS.Signals) => void, pid: number) => void,
    cpuSeconds?: number,
    watch?: (stderr: string) => void,
): Promise<Child> {
    const command = [process.execPath, ...cliArgs(...args)];
    // A CPU-time limit set by the kernel (prlimit): past it the process is killed (SIGXCPU), however loaded the machine is.
    if (cpuSeconds !== undefined) command.unshift('prlimit', `--cpu=${cpuSeconds}`, '--');
    return new Promise(resolve => {
        const child = spawn(command[0]!, command.slice(1), {
            cwd: repoRoot,
            env: { ...process.env, HALLUPROBE_TRUSTED_HOSTS: '', ...env },
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', d => {
            stdout += d;
        });
        child.stderr.on('data', d => {
            stderr += d;
            watch?.(stderr);
        });
        kill?.((signal = 'SIGKILL') => child.kill(signal), child.pid!);
        child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
}
