import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FkJoin, resolvePath, AMBIGUOUS, DANGLING } from '../../../src/core/kg/graph.js';
import { createTable } from '../../../src/core/data/table.js';
import { world } from '../../fixtures/probes/world.js';
import { OLYMPICS_FILES, OLYMPICS_SPEC } from '../../fixtures/probes/olympics.js';

const CYCLIC = `
source people csv "people.csv"
relation Person from people { name: text  mother: text  city: text  key (name) }
relation Town from people distinct { name: text = "city"  mayor: text = "name"  key (name) }
fk Person.mother -> Person.name as mother_of
fk Person.city -> Town.name as lives_in
fk Town.mayor -> Person.name as mayor_of
`;

describe('FK paths', () => {
    it('resolves path steps to the FKs they follow and their keyword attributes', async t => {
        const w = await world(OLYMPICS_SPEC, OLYMPICS_FILES);
        t.after(w.dispose);
        const r = resolvePath(w.model, [
            { relation: 'Player', attribute: 'club' },
            { relation: 'Club', attribute: 'city' },
            { relation: 'City', attribute: 'host_years' },
        ]);
        assert.ok('path' in r);
        assert.deepEqual(r.path.relations, ['Player', 'Club', 'City']);
        assert.deepEqual(
            r.path.hops.map(h => h.fk?.id),
            ['plays_for', 'located_in', undefined],
        );
        assert.deepEqual(
            r.path.hops.map(h => `${h.keyword.relation}.${h.keyword.attribute}`),
            ['Club.name', 'City.name', 'City.host_years'],
        );
        assert.equal(r.path.cycleAt, undefined);
        const bad = resolvePath(w.model, [
            { relation: 'Player', attribute: 'name' },
            { relation: 'City', attribute: 'host_years' },
        ]);
        assert.ok('error' in bad && /No fk leads from Player.name to City/.test(bad.error));
    });

    it('marks where a path returns to a relation already on it', async t => {
        const w = await world(CYCLIC, { 'people.csv': 'name,mother,city\nAnn,,Rome\nBea,Ann,Rome\n' });
        t.after(w.dispose);
        const r = resolvePath(w.model, [
            { relation: 'Person', attribute: 'city' },
            { relation: 'Town', attribute: 'mayor' },
            { relation: 'Person', attribute: 'name' },
        ]);
        assert.ok('path' in r && r.path.cycleAt === 2);
    });

    it('joins rows by value, across types, and marks dangling and ambiguous references', () => {
        const text = { scalar: 'text', list: false } as const;
        const int = { scalar: 'int', list: false } as const;
        const from = createTable('Movie', '/m.csv', [{ name: 'year', type: int }], [[2009], [1997], [null], [2001]]);
        const to = createTable(
            'Year',
            '/y.csv',
            [
                { name: 'y', type: text },
                { name: 'note', type: text },
            ],
            [
                ['2009', 'a'],
                ['1997', 'b'],
                ['2001', 'c'],
                ['2001', 'd'],
            ],
        );
        const join = new FkJoin(from, ['year'], to, ['y']);
        assert.deepEqual(
            [0, 1, 2, 3].map(r => join.target(r)),
            [0, 1, DANGLING, AMBIGUOUS],
        );
    });
});
