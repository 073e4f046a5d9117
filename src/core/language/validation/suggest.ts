/** Closest-name suggestions for "did you mean …?" messages and quick fixes. */

function editDistance(a: string, b: string): number {
    if (a === b) return 0;
    const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        let diag = prev[0]!;
        prev[0] = i;
        for (let j = 1; j <= b.length; j++) {
            const above = prev[j]!;
            prev[j] = Math.min(above + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
            diag = above;
        }
    }
    return prev[b.length]!;
}

/**
 * The candidate closest to `name` (case-insensitive edit distance), or undefined when nothing is close
 * enough to be a plausible typo: a suggestion that is far off misleads more than it helps.
 */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
    if (!name) return undefined;
    let best: string | undefined;
    let bestDistance = Infinity;
    const lower = name.toLowerCase();
    for (const c of candidates) {
        if (!c || c === name) continue;
        const d = editDistance(lower, c.toLowerCase());
        if (d < bestDistance) {
            best = c;
            bestDistance = d;
        }
    }
    if (best === undefined) return undefined;
    const limit = Math.max(2, Math.floor(Math.max(name.length, best.length) / 3));
    return bestDistance <= limit ? best : undefined;
}

/** ", did you mean 'x'?" or "" — to append to a message. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
    const c = closest(name, candidates);
    return c === undefined ? '' : ` Did you mean '${c}'?`;
}

/** The closest name as diagnostic data (`{ suggestion }`), which the quick fix reads; undefined when none is close. */
export function suggestionData(name: string, candidates: Iterable<string>): { suggestion: string } | undefined {
    const c = closest(name, candidates);
    return c === undefined ? undefined : { suggestion: c };
}
