// After `npm install`: regenerate the Langium parser from the grammar so the AST types always match it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (existsSync('langium-config.json') && existsSync('node_modules/langium-cli')) {
    execFileSync(process.execPath, ['node_modules/langium-cli/bin/langium.js', 'generate'], { stdio: 'ignore' });
}
