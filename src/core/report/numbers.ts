/** How figures are written in every report: two decimals, intervals in brackets, n/a when undefined. */
export function pct(x: number | null | undefined): string {
    return x === null || x === undefined ? 'n/a' : x.toFixed(2);
}

export function ciText(ci: [number, number] | null | undefined): string {
    return ci ? `[${ci[0].toFixed(2)}, ${ci[1].toFixed(2)}]` : '';
}
