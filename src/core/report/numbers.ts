/** How figures are written in every report: two decimals, intervals in brackets, n/a when undefined. */
export function pct(x: number | null | undefined): string {
    return x === null || x === undefined ? 'n/a' : x.toFixed(2);
}

export function ciText(ci: [number, number] | null | undefined): string {
    return ci ? `[${ci[0].toFixed(2)}, ${ci[1].toFixed(2)}]` : '';
}

/** A figure in a machine-readable report: rounded to 4 decimals (null stays null). */
export const round4 = (x: number | null) => (x === null ? null : Math.round(x * 10000) / 10000);

/** An interval in a machine-readable report, each end rounded to 4 decimals. */
export const roundCi = (ci: [number, number] | null) => (ci ? [round4(ci[0]), round4(ci[1])] : null);

/** `.85`, `1.00`, `0` → `.00`: the paper's two-decimal style, where a line has little room (the CodeLens). */
export function ratio(x: number): string {
    const s = x.toFixed(2);
    return s.startsWith('0') ? s.slice(1) : s;
}
