// Issue 29, item 8: an import of a spec over 8 MB is a located error (the size check never fired: Langium's stat
// has no size, so the file was silently left out), and an import cycle is reported as a cycle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../support/temp.js';
import { cli } from '../support/cli-process.js';

const relation = (source: string, name: string) =>
    `source ${source} csv "${source}.csv"\n\nrelation ${name} from ${source} {\n    x: text\n    key (x)\n}\n`;

test('importing a 9 MB spec is a located error naming the limit', { timeout: 60_000 }, async () => {
    const dir = tempDir('hp-import-size-');
    fs.writeFileSync(path.join(dir, 'big.probe'), `// ${'x'.repeat(100)}\n`.repeat(90_000));
    fs.writeFileSync(path.join(dir, 'main.probe'), `import "big.probe"\n${relation('s', 'R')}`);
    fs.writeFileSync(path.join(dir, 's.csv'), 'x\na\n');
    const r = await cli(['check', path.join(dir, 'main.probe')], {});
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
        r.stdout + r.stderr,
        /main\.probe:1:8 error \[bad-import\] big\.probe is 9 MB; specs larger than 8 MB are not read/,
    );
});

test('an import cycle is reported as a cycle, not as names declared twice', { timeout: 60_000 }, async () => {
    const dir = tempDir('hp-import-cycle-');
    fs.writeFileSync(path.join(dir, 'a.probe'), `import "b.probe"\n${relation('sa', 'A')}`);
    fs.writeFileSync(path.join(dir, 'b.probe'), `import "c.probe"\n${relation('sb', 'B')}`);
    fs.writeFileSync(path.join(dir, 'c.probe'), `import "a.probe"\n${relation('sc', 'C')}`);
    for (const s of ['sa', 'sb', 'sc']) fs.writeFileSync(path.join(dir, `${s}.csv`), 'x\na\n');
    const r = await cli(['check', path.join(dir, 'a.probe')], {});
    const text = r.stdout + r.stderr;
    assert.match(
        text,
        /a\.probe:1:8 warning \[import-cycle\] The imports form a cycle: a\.probe → b\.probe → c\.probe → a\.probe/,
    );
    assert.doesNotMatch(text, / error \[/, 'no error: in particular no name reported as declared twice');
    assert.equal(r.code, 0, text);
});
