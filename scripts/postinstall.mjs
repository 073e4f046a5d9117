// After `npm install`: regenerate the Langium parser from the grammar so the AST types always match it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (existsSync('langium-config.json') && existsSync('node_modules/langium-cli')) {
    execFileSync(process.execPath, ['node_modules/langium-cli/bin/langium.js', 'generate'], { stdio: 'ignore' });
}

// npm itself may run on an older system Node and warn (EBADENGINE) about packages that want Node 22: say once
// why that is harmless — npm puts the bundled Node 22 first on the PATH of scripts, so every script, the CLI and
// the tests run on it.
const npmNode = /node\/v(\d+)/.exec(process.env.npm_config_user_agent ?? '')?.[1];
if (npmNode && Number(npmNode) < 22 && existsSync('node_modules/.bin/node')) {
    console.log(
        `halluprobe: npm ran on Node ${npmNode}, hence any EBADENGINE warnings above; HalluProbe's scripts, CLI and tests run on the bundled Node 22 (node_modules/.bin/node), so they do not apply.`,
    );
}
