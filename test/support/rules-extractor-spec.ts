/**
 * The rules example copied into `dir` with a `rules/echo.probe` whose teammates probe extracts its rationales' triples
 * with an openai model at `url` (named `model`, key from `keyEnv`); `suiteModels` makes it the suite's model too.
 * Returns the spec's path. Used by the key-echo tests: the server echoes the key through the side call.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './runner-fixtures.js';

export function rulesSpecWithExtractor(
    dir: string,
    model: { name: string; id: string; url: string; keyEnv: string },
    suiteModels: boolean,
): string {
    cpSync(path.join(repoRoot, 'examples', 'rules'), path.join(dir, 'rules'), { recursive: true });
    cpSync(path.join(repoRoot, 'examples', 'soccer', 'data'), path.join(dir, 'soccer', 'data'), { recursive: true });
    const spec = readFileSync(path.join(dir, 'rules', 'rules.probe'), 'utf8')
        .replace(
            'probe teammates rule using colleague {',
            `probe teammates rule using colleague {\n    extract_with ${model.name}`,
        )
        .replace(/probes teammates, .*/, suiteModels ? `probes teammates\n    models ${model.name}` : 'probes teammates');
    const file = path.join(dir, 'rules', 'echo.probe');
    writeFileSync(
        file,
        `${spec}\nmodel ${model.name} openai {\n    id "${model.id}"\n    endpoint "${model.url}"\n    key_env "${model.keyEnv}"\n}\n`,
    );
    return file;
}
