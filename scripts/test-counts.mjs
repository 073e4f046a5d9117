// `npm test`'s closing line: the test runner's real counts, read from the TAP copy of its report.

/** The runner's own counts, from the TAP copy of its report ("# pass N", "# fail M", …). */
export function tapCounts(tap) {
    const count = name => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
    return { tests: count('tests'), pass: count('pass'), fail: count('fail'), cancelled: count('cancelled'), skipped: count('skipped'), todo: count('todo') };
}

export function countsLine(c) {
    const extra = [['cancelled', c.cancelled], ['skipped', c.skipped], ['todo', c.todo]].filter(([, n]) => n > 0).map(([k, n]) => `, ${n} ${k}`).join('');
    return `${c.pass} passed, ${c.fail} failed${extra} (of ${c.tests} tests)`;
}
