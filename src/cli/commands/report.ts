import type { Command } from './index.js';

export const report: Command = {
    summary: '(not implemented yet)',
    usage: 'halluprobe report — not implemented yet',
    async run() {
        console.error('halluprobe report: not implemented yet');
        return 2;
    },
};
