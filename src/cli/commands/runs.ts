import type { Command } from './index.js';

export const runs: Command = {
    summary: '(not implemented yet)',
    usage: 'halluprobe runs — not implemented yet',
    async run() {
        console.error('halluprobe runs: not implemented yet');
        return 2;
    },
};
