// `npm test`'s closing line: the test runner's real counts, read from the TAP copy of its report.

/**
 * The runner's own counts, from the TAP copy of its report ("# pass N", "# fail M", …). Skipped: every result
 * line with a SKIP directive — the runner's "# skipped" leaves out a skipped suite (the e2e tier without
 * code-server), whose tests never run. A suite whose own code failed (its body threw, a hook failed) counts as a
 * failed test: the runner's "# fail" leaves it out, and the tests it would have declared never ran.
 */
export function tapCounts(tap) {
    const count = name => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
    const skipLines = (tap.match(/^\s*ok \d+ - .*# SKIP\b/gm) ?? []).length;
    const brokenSuites = failedBlocks(tap).filter(
        b => /^\s*type: 'suite'$/m.test(b) && /^\s*failureType: '(?:testCodeFailure|hookFailed)'$/m.test(b),
    ).length;
    return {
        tests: count('tests'),
        pass: count('pass'),
        fail: count('fail') + brokenSuites,
        cancelled: count('cancelled'),
        skipped: Math.max(count('skipped'), skipLines),
        todo: count('todo'),
    };
}

/** The YAML block ("---" … "...") under each "not ok" line. */
function failedBlocks(tap) {
    const lines = tap.split('\n');
    const blocks = [];
    for (let i = 0; i < lines.length; i++) {
        const m = /^(\s*)not ok \d+ - /.exec(lines[i]);
        if (!m || lines[i + 1] !== `${m[1]}  ---`) continue;
        const end = lines.indexOf(`${m[1]}  ...`, i + 2);
        blocks.push(lines.slice(i + 2, end < 0 ? lines.length : end).join('\n'));
    }
    return blocks;
}

/** The counts of several runs of the runner (one per group of test files), added up. */
export function sumCounts(all) {
    const sum = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
    for (const c of all) for (const k of Object.keys(sum)) sum[k] += c[k];
    return sum;
}

/**
 * "N passed, M failed" alone on the line (", K skipped" when some were), the form CI readers take as the plain
 * closing line; a cancelled test counts as failed, a todo as skipped.
 */
export function countsLine(c) {
    const skipped = c.skipped + c.todo;
    return `${c.pass} passed, ${c.fail + c.cancelled} failed${skipped ? `, ${skipped} skipped` : ''}`;
}
