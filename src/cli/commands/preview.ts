import type { Command } from './index.js';

export const preview: Command = {
    summary: '(not implemented yet)',
    usage: 'halluprobe preview — not implemented yet',
    async run() {
        console.error('halluprobe preview: not implemented yet');
        return 2;
    },
};
