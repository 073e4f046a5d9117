// The Node version check of the CLI entry, apart so that it can be tested under any Node.

/**
 * better-sqlite3 13 crashes on Node older than 22: say so in one line, with what works both in this repository
 * (its `node` dev dependency is Node 22, which `npx` puts first on PATH) and in a project that installed
 * HalluProbe (the same, once the project adds it).
 * In a checkout of the repository (`checkout`: its folder, holding the `node` dev dependency) "npx halluprobe" would
 * ask the public registry (the package does not link its own bin), so the advice there is the checkout's own Node 22.
 * @param {string} version process.versions.node
 * @param {{ checkout?: string }} [where]
 * @returns {string | undefined}
 */
export function nodeVersionProblem(version, where = {}) {
    if (Number(version.split('.')[0]) >= 22) return undefined;
    if (where.checkout)
        return `halluprobe needs Node.js 22 or later (this is v${version}): install Node 22, or run it with this checkout's own Node 22: "node_modules/.bin/node bin/halluprobe.js <command>" in ${where.checkout}.`;
    return `halluprobe needs Node.js 22 or later (this is v${version}): install Node 22, or add it to this project with "npm install --save-dev node@22" and run "npx halluprobe".`;
}
