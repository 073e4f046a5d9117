import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseTemplate, render, parseExpression, evaluate, format } from '../../../src/core/spec/template.js';

describe('templates', () => {
    const row: Record<string, unknown> = { title: 'Avatar', year: 2009, birth_year: 1954, length: 162, host_years: [1992, 1996] };
    const lookup = (name: string) => (row[name] ?? null) as never;

    it('renders attributes and functions', () => {
        const t = parseTemplate(
            'Was {title} ({year}) made by someone born in the {decade(birth_year)}s, longer than {length - 20} min?',
        );
        assert.deepEqual(t.errors, []);
        assert.equal(render(t, lookup), 'Was Avatar (2009) made by someone born in the 1950s, longer than 142 min?');
    });

    it('keeps literal braces and reports unclosed ones with their offset', () => {
        assert.equal(render(parseTemplate('a {{b}} {title}'), lookup), 'a {b} Avatar');
        const bad = parseTemplate('Is {title a movie?');
        assert.equal(bad.errors.length, 1);
        assert.equal(bad.errors[0]!.offset, 3);
    });

    it('evaluates gold conditions over lists', () => {
        const r = parseExpression('nonempty(host_years) and count(host_years) >= 2');
        assert.ok('expr' in r);
        assert.equal(evaluate(r.expr, lookup), true);
        const q = parseExpression('Director.name');
        assert.ok('expr' in q && q.expr.kind === 'name' && q.expr.qualifier === 'Director');
    });

    it('reports a syntax error inside a placeholder', () => {
        const t = parseTemplate('x {decade(}');
        assert.equal(t.errors.length, 1);
        assert.match(t.errors[0]!.message, /Unexpected|Incomplete/);
    });

    it('chooses the indefinite article for a word', () => {
        const t = parseTemplate('It is {article(genre)} {genre} movie.');
        assert.deepEqual(t.errors, []);
        assert.equal(
            render(t, name => (name === 'genre' ? 'animation' : null)),
            'It is an animation movie.',
        );
        assert.equal(
            render(t, name => (name === 'genre' ? 'non-animation' : null)),
            'It is a non-animation movie.',
        );
    });

    it('prints numbers as written in the data, and rounds arithmetic noise', () => {
        assert.equal(format(43.3708833333333), '43.3708833333333');
        assert.equal(format(-34.7833328247), '-34.7833328247');
        assert.equal(format(0.1 + 0.2), '0.3');
        assert.equal(format(2009), '2009');
    });
});
