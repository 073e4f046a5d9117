// `npm test`'s closing line: the test runner's real counts, read from the TAP copy of its report.

/**
 * The runner's own counts, from the TAP copy of its report ("# pass N", "# fail M", …). Skipped: every result
 * line with a SKIP directive — the runner's "# skipped" leaves out a skipped suite (the e2e tier without
 * code-server), whose tests never run.
 */
export function tapCounts(tap) {
    const count = name => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
    const skipLines = (tap.match(/^\s*ok \d+ - .*# SKIP\b/gm) ?? []).length;
    return { tests: count('tests'), pass: count('pass'), fail: count('fail'), cancelled: count('cancelled'), skipped: Math.max(count('skipped'), skipLines), todo: count('todo') };
}

/**
 * "N passed, M failed" alone on the line (", K skipped" when some were), the form CI readers take as the plain
 * closing line; a cancelled test counts as failed, a todo as skipped.
 */
export function countsLine(c) {
    const skipped = c.skipped + c.todo;
    return `${c.pass} passed, ${c.fail + c.cancelled} failed${skipped ? `, ${skipped} skipped` : ''}`;
}
