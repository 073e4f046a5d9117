/** A uniform draw in [0, 1) from the hash of its parts: the offline simulator's only source of randomness. */
import { createHash } from 'node:crypto';

export function draw(...parts: (string | number)[]): number {
    const h = createHash('sha256').update(parts.join('\u0000')).digest();
    return h.readUInt32BE(0) / 0x1_0000_0000;
}
