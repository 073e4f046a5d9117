import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateQuestions, probeDiagnostics } from '../../../src/core/probes/index.js';
import { movieWorld, world } from '../../fixtures/probes/world.js';
import { OLYMPICS_FILES, OLYMPICS_SPEC } from '../../fixtures/probes/olympics.js';

const codes = (ds: { code: string }[]) => ds.map(d => d.code).sort();

describe('probe diagnostics (bad input never throws)', () => {
    it('a template naming a missing attribute: an error at the phrasing, and no questions', async t => {
        const w = await movieWorld('probe typo binary using movie_title {\n    basic "Is there a movie by {directr}?"\n}');
        t.after(w.dispose);
        const ds = probeDiagnostics(w.model, w.data).filter(d => d.code === 'unknown-attribute');
        assert.equal(ds.length, 1);
        assert.equal(ds[0]!.severity, 'error');
        assert.match(ds[0]!.message, /\{directr\} names no attribute/);
        assert.equal(ds[0]!.range.start.line, w.model.probes.find(p => p.name === 'typo')!.phrasings[0]!.loc.range.start.line);
        const g = generateQuestions(w.model, w.data, { probe: 'typo' });
        assert.equal([...g.questions].length, 0);
        assert.deepEqual(codes(g.diagnostics), ['unknown-attribute']);
    });

    it('a list-valued attribute shown bare: a warning with the functions to use', async t => {
        const w = await world(
            `${OLYMPICS_SPEC}\nprobe years knows about City {\n    ask "Did {name} host in {host_years}?"\n}`,
            OLYMPICS_FILES,
        );
        t.after(w.dispose);
        const d = probeDiagnostics(w.model, w.data).find(x => x.code === 'list-attribute')!;
        assert.equal(d.severity, 'warning');
        assert.match(d.message, /list-valued.*join\(host_years\)/);
    });

    it('an FD whose right-hand side is empty in every row', async t => {
        const csv =
            'title,year,director,star,birth_year,length,plot\nAvatar,2009,,CCH Pounder,1954,162,x\nUp,2009,,Ed Asner,,96,y\n';
        const w = await movieWorld('', csv);
        t.after(w.dispose);
        const d = probeDiagnostics(w.model, w.data).find(x => x.code === 'probe-fd-empty')!;
        assert.match(d.message, /Movie\.director, the right-hand side of movie_director, is empty in every row/);
        assert.equal(d.range.start.line, w.model.probes.find(p => p.name === 'movie_long')!.loc.range.start.line);
    });

    it('zero eligible rows, with the reasons the rows were skipped', async t => {
        const csv =
            'title,year,director,star,birth_year,length,plot\nAvatar,2009,James Cameron,,1954,162,x\nUp,2009,Pete Docter,,1950,96,y\n';
        const w = await movieWorld('', csv);
        t.after(w.dispose);
        const d = probeDiagnostics(w.model, w.data).find(x => x.code === 'probe-no-rows')!;
        assert.match(d.message, /Probe movie_binary gives no questions: all 2 rows are skipped — 2 have an empty value/);
    });

    it('a path that returns to a relation (a cycle), and a path no FK supports', async t => {
        const spec = `
source people csv "people.csv"
relation Person from people { name: text  mother: text  born: int  key (name) }
fk Person.mother -> Person.name as mother_of
probe grandma path along Person.mother -> Person.mother -> Person.born {
    basic "Was the grandmother of {name} born after {born}?"
}
probe nowhere path along Person.name -> Person.born {
    basic "?"
}`;
        const w = await world(spec, { 'people.csv': 'name,mother,born\nAnn,,1900\nBea,Ann,1930\nCid,Bea,1960\nDee,Dee,1990\n' });
        t.after(w.dispose);
        const ds = probeDiagnostics(w.model, w.data);
        assert.ok(ds.some(d => d.code === 'probe-path-cycle' && /returns to Person/.test(d.message)));
        assert.ok(ds.some(d => d.code === 'probe-path' && /No fk leads from Person.name/.test(d.message)));
        const g = generateQuestions(w.model, w.data, { probe: 'grandma' });
        const qs = [...g.questions];
        assert.equal(qs.length, 1, 'only Cid has a grandmother');
        assert.deepEqual(
            qs[0]!.keywords.map(h => h.map(k => k.value)),
            [['Bea'], ['Ann'], ['1900']],
        );
        // Dee is her own mother: the join comes back to the same entity.
        assert.equal(g.stats.skippedCycle, 1);
    });

    it('a choice probe with fewer than two options, and unknown names', async t => {
        const w = await movieWorld('probe one choice using director_birth {}');
        t.after(w.dispose);
        assert.ok(
            probeDiagnostics(w.model, w.data).some(d => d.code === 'probe-choice-options' && /needs at least 2/.test(d.message)),
        );
        assert.deepEqual(codes(generateQuestions(w.model, w.data, { suite: 'nope' }).diagnostics), ['unknown-suite']);
        assert.deepEqual(codes(generateQuestions(w.model, w.data, { probe: 'nope' }).diagnostics), ['unknown-probe']);
    });
});
