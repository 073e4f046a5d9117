/**
 * One code per condition for a probe's templates (issue 23): the generator's template problems, once all
 * `probe-template`, each carry the code of their condition, the same code the spec check gives where it finds the
 * condition first (template-syntax, condition-syntax, unknown-attribute, list-attribute); a template stating a hidden
 * hop of a path has its own.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateQuestions, probeDiagnostics } from '../../../src/core/probes/index.js';
import { movieWorld, world } from '../../fixtures/probes/world.js';
import { OLYMPICS_FILES, OLYMPICS_SPEC } from '../../fixtures/probes/olympics.js';

const generatorCodes = (g: { diagnostics: { code: string }[] }) => g.diagnostics.map(d => d.code).sort();

describe('template problems: one code per condition', () => {
    const cases: { name: string; probe: string; code: string; severity: 'error' | 'warning'; message: RegExp }[] = [
        {
            name: 'an attribute the probe cannot show',
            probe: 'probe p binary using movie_title {\n    basic "Is there a movie by {directr}?"\n}',
            code: 'unknown-attribute',
            severity: 'error',
            message: /\{directr\} names no attribute/,
        },
        {
            name: 'a template that does not parse',
            probe: 'probe p binary using movie_title {\n    basic "Is there a movie by {director?"\n}',
            code: 'template-syntax',
            severity: 'error',
            message: /Unclosed "\{"/,
        },
        {
            name: 'a condition that does not parse',
            probe: 'probe p binary using movie_director {\n    phrasing long when "length >" "Is {title} long?"\n}',
            code: 'condition-syntax',
            severity: 'error',
            message: /In "length >"/,
        },
        {
            name: 'a path template stating its hidden hop',
            probe: 'probe p path along Movie.director -> Director.birth_year {\n    basic "Was {director}, who directed {title} ({year}), born in the {decade(birth_year)}s?"\n}',
            code: 'hidden-hop-stated',
            severity: 'warning',
            message: /reveals a hidden hop/,
        },
    ];
    for (const c of cases) {
        it(c.name, async t => {
            const w = await movieWorld(c.probe);
            t.after(w.dispose);
            const found = probeDiagnostics(w.model, w.data).filter(
                d => d.range.start.line >= w.model.probes.find(p => p.name === 'p')!.loc.range.start.line,
            );
            assert.deepEqual(
                found.map(d => [d.code, d.severity]),
                [[c.code, c.severity]],
                JSON.stringify(found),
            );
            assert.match(found[0]!.message, c.message);
            assert.ok(!generatorCodes(generateQuestions(w.model, w.data, { probe: 'p' })).includes('probe-template'));
        });
    }

    it('a list-valued attribute shown bare', async t => {
        const w = await world(
            `${OLYMPICS_SPEC}\nprobe years knows about City {\n    ask "Did {name} host in {host_years}?"\n}`,
            OLYMPICS_FILES,
        );
        t.after(w.dispose);
        const d = probeDiagnostics(w.model, w.data).filter(x => /list-valued/.test(x.message));
        assert.deepEqual(
            d.map(x => [x.code, x.severity]),
            [['list-attribute', 'warning']],
        );
    });

    it('a relation no fk chain reaches from a knowledge probe', async t => {
        const spec = `${OLYMPICS_SPEC}\nrelation Lone from cities { name: text key (name) }\nprobe bad knows about Player { ask "Is {Lone.name} it?" }\n`;
        const w = await world(spec, OLYMPICS_FILES);
        t.after(w.dispose);
        const g = generateQuestions(w.model, w.data, { probe: 'bad' });
        const d = g.diagnostics.filter(p => /no chain of fks/.test(p.message));
        assert.deepEqual(
            d.map(p => p.code),
            ['unknown-attribute'],
        );
    });
});
