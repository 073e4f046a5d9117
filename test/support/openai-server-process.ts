/** The local OpenAI-compatible server in its own process (so it does not share the event loop it is measured with). */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from './ts-loader.js';

export interface ServerProcess {
    url: string;
    stats(): Promise<{ requests: number; completed: number; byQuestion: Record<string, number> }>;
    close(): Promise<void>;
}

const cliPath = fileURLToPath(new URL('./openai-server-cli.ts', import.meta.url));

/** Starts `openai-server-cli.ts` with the given arguments and resolves once it prints its URL. */
export function spawnOpenAIServer(args: string[] = []): Promise<ServerProcess> {
    const child = spawn(process.execPath, [...tsImport(), cliPath, ...args], {
        stdio: ['ignore', 'pipe', 'inherit'],
        cwd: path.dirname(cliPath),
    });
    return new Promise((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', code => reject(new Error(`the test server exited (${code}) before printing its URL`)));
        child.stdout.once('data', d => {
            const url = String(d).trim().split('\n')[0]!;
            resolve({
                url,
                stats: async () =>
                    (await fetch(url.replace(/\/v1$/, '/_stats'))).json() as Promise<Awaited<ReturnType<ServerProcess['stats']>>>,
                close: () =>
                    new Promise(done => {
                        child.removeAllListeners('exit');
                        child.once('exit', () => done());
                        child.kill('SIGTERM');
                    }),
            });
        });
    });
}
