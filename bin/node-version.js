// The Node version check of the CLI entry, apart so that it can be tested under any Node.

/**
 * better-sqlite3 13 crashes on Node older than 22: say so in one line, with what works both in this repository
 * (its `node` dev dependency is Node 22, which `npx` puts first on PATH) and in a project that installed
 * HalluProbe (the same, once the project adds it).
 * @param {string} version process.versions.node
 * @returns {string | undefined}
 */
export function nodeVersionProblem(version) {
    if (Number(version.split('.')[0]) >= 22) return undefined;
    return `halluprobe needs Node.js 22 or later (this is v${version}): install Node 22, or add it to this project with "npm install --save-dev node@22" and run "npx halluprobe".`;
}
