import type { Command } from './index.js';

export const run: Command = {
    summary: '(not implemented yet)',
    usage: 'halluprobe run — not implemented yet',
    async run() {
        console.error('halluprobe run: not implemented yet');
        return 2;
    },
};
