/**
 * The soccer example with a suite of prompt variants (by default zero_shot, few_shot(2), few_shot(3), cot), three
 * phrasings of one probe and two simulated models, written into a temp dir: the case where groups of a
 * report differ only by variant parameters, phrasing or model.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot, tempDir } from './runner-fixtures.js';

export function writeVariantsSuite(variants = ['zero_shot', 'few_shot(2)', 'few_shot(3)', 'cot']): string {
    const dir = tempDir('hp-variants-');
    const example = path.join(repoRoot, 'examples', 'soccer');
    mkdirSync(path.join(dir, 'data'));
    for (const f of ['players.csv', 'clubs.csv', 'cities.csv'])
        copyFileSync(path.join(example, 'data', f), path.join(dir, 'data', f));
    const spec = readFileSync(path.join(example, 'soccer.probe'), 'utf8')
        .replace(
            /^(\s*negated "Is it true that there is no soccer club that \{name\} played for in 2019\?")$/m,
            '$1\n    phrasing asked gold yes "In 2019, did {name} play for a soccer club?"',
        )
        .replace(
            /suite olympics \{[\s\S]*\}\s*$/,
            `model simulator_two offline {
    knowledge 0.5
    seed 9
}

suite olympics {
    probes club_city_olympics, player_club
    models simulator, simulator_two
    sample all
${variants.map(v => `    variant ${v}`).join('\n')}
}
`,
        );
    const file = path.join(dir, 'soccer.probe');
    writeFileSync(file, spec);
    return file;
}
