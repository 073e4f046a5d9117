// Item 8 of issue 11: names inherited by plain objects are not template functions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose, MOVIE } from '../unit/language/support.js';
import { parseExpression, TEMPLATE_FUNCTIONS } from '../../src/core/spec/template.js';

const withTemplate = (placeholder: string) => MOVIE.replace(/basic "[^"]*"/, `basic "Is {title} ${placeholder} a film?"`);

for (const fn of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf', '__defineGetter__']) {
    test(`{${fn}(title)} is an unknown function`, async () => {
        const text = withTemplate(`{${fn}(title)}`);
        assert.notEqual(text, MOVIE, 'the fixture has a basic phrasing to replace');
        const ds = await diagnose(text);
        assert.ok(
            ds.some(d => d.code === 'unknown-function' && String(d.message).includes(`'${fn}'`)),
            JSON.stringify(ds.map(d => d.message)),
        );
    });
}

test('the function table has no prototype and known functions still work', async () => {
    assert.equal(Object.getPrototypeOf(TEMPLATE_FUNCTIONS), null);
    assert.ok('lower' in TEMPLATE_FUNCTIONS && !('constructor' in TEMPLATE_FUNCTIONS));
    const ds = await diagnose(withTemplate('{lower(title)}'));
    assert.ok(!ds.some(d => d.code === 'unknown-function'));
    assert.ok('expr' in parseExpression('constructor(title)'));
});
