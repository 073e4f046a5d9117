import type { Command } from './index.js';

export const compare: Command = {
    summary: '(not implemented yet)',
    usage: 'halluprobe compare — not implemented yet',
    async run() {
        console.error('halluprobe compare: not implemented yet');
        return 2;
    },
};
