/**
 * Every output tells its groups apart: a suite with four variants (two of them few_shot(n) with different n),
 * three phrasings and two models, run offline through the CLI, then reported in every format, compared and
 * gated; no two groups of any output share a label.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../support/cli.js';
import { groupLabel, sharedLabels, type GroupKey } from '../../../src/core/report/labels.js';
import { writeVariantsSuite } from '../../support/variants-suite.js';

const cli = runCli;

const duplicates = (xs: string[]) => [...new Set(xs.filter((x, i) => xs.indexOf(x) !== i))];
/** The cells of a Markdown table's body rows under the heading `title`, first `width` columns. */
function mdRows(md: string, title: string, width: number): string[] {
    const section = md.split(`## ${title}`)[1]!.split('\n## ')[0]!;
    return section
        .split('\n')
        .filter(l => l.startsWith('| ') && !l.startsWith('| model'))
        .map(l => l.split(' | ').slice(0, width).join(' | '));
}

describe('group labels', () => {
    let spec: string, db: string, dir: string;
    const report = async (format: string) => {
        const out = path.join(dir, `report.${format}`);
        const r = await cli('report', '--db', db, '--format', format, '--out', out);
        assert.equal(r.code, 0, r.err);
        return readFileSync(out, 'utf8');
    };
    before(async () => {
        spec = writeVariantsSuite();
        dir = path.dirname(spec);
        db = path.join(dir, 'results.db');
        const r = await cli('run', spec, '--db', db, '--yes');
        assert.equal(r.code, 0, r.err);
    });

    it('labels a variant with its parameters, and leaves out defaults', () => {
        assert.equal(
            groupLabel({ model: 'm', probe: 'p', phrasing: 'basic', variant: 'few_shot(2)', mode: 'known' }),
            'm · p · basic · few_shot(2) · entities the model knows',
        );
        assert.equal(
            groupLabel({ model: 'm', probe: 'p', phrasing: 'basic', variant: 'zero_shot', mode: 'all' }),
            'm · p · basic',
        );
        const keys: GroupKey[] = [
            { phrasing: 'basic', variant: 'few_shot(2)' },
            { phrasing: 'basic', variant: 'few_shot(3)' },
            { phrasing: 'basic', variant: 'zero_shot' },
        ];
        assert.deepEqual(sharedLabels(keys), []);
        assert.deepEqual(sharedLabels(keys, ['phrasing']), ['basic']);
    });

    it('md: no two rows of the metrics, paths or choice tables share a group', async () => {
        const md = await report('md');
        const metrics = mdRows(md, 'Metrics', 5);
        assert.equal(metrics.length, 2 * 4 * 5, `groups: ${metrics.length}`);
        assert.deepEqual(duplicates(metrics), []);
        assert.ok(
            metrics.some(l => l.includes('few\\_shot(2)')) && metrics.some(l => l.includes('few\\_shot(3)')),
            'few_shot(n) keeps its n',
        );
        const hops = mdRows(md, 'Paths, hop by hop', 7).map(l =>
            l
                .split(' | ')
                .filter((_, i) => i !== 5)
                .join(' | '),
        );
        assert.ok(hops.length > 0);
        assert.deepEqual(duplicates(hops), []);
    });

    it('html: every chart label and table row tells its group apart', async () => {
        const html = await report('html');
        const figures = [...html.matchAll(/<figure class="chart"><figcaption>(.*?)<\/figcaption>(.*?)<\/figure>/g)];
        assert.ok(figures.length >= 2);
        assert.deepEqual(duplicates(figures.map(f => f[1]!)), [], 'chart captions');
        for (const [, caption, svg] of figures) {
            const labels = [...svg!.matchAll(/<text [^>]*class="lbl"[^>]*>(.*?)<\/text>/g)].map(m =>
                m[1]!.replace(/<[^>]+>/g, '|'),
            );
            assert.deepEqual(duplicates(labels), [], `labels of ${caption}`);
            assert.ok(!labels.some(l => l.includes('…')), 'no label is cut');
        }
        const rows = [
            ...html
                .split('<h2>Metrics</h2>')[1]!
                .split('</table>')[0]!
                .matchAll(/<tr>((?:<td>[^<]*<\/td>){5})/g),
        ].map(m => m[1]!);
        assert.ok(rows.length >= 40);
        assert.deepEqual(duplicates(rows), []);
    });

    it('junit: no two test cases of a suite share a name', async () => {
        const cases = [...(await report('junit')).matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)].map(
            m => `${m[1]} ${m[2]}`,
        );
        assert.ok(cases.length > 100);
        assert.deepEqual(duplicates(cases), []);
    });

    it('compare and the --max-h gate name each group once', async () => {
        const file = path.join(dir, 'compare.md');
        const c = await cli('compare', '--db', db, 'latest', 'latest', '--out', file);
        // compare writes several tables (a matrix per figure and group, the pairs): within each, a group is named once.
        const tables = readFileSync(file, 'utf8')
            .split(/\n\s*\n/)
            .map(t =>
                t
                    .split('\n')
                    .filter(l => l.startsWith('| ') && !l.startsWith('| model'))
                    .map(l => l.split(' | ').slice(0, 6).join(' | ')),
            )
            .filter(t => t.length > 0);
        assert.ok(tables.flat().length >= 40 * 5, c.err);
        for (const rows of tables) assert.deepEqual(duplicates(rows), []);
        const g = await cli('report', '--db', db, '--format', 'json', '--max-h', '0', '--out', path.join(dir, 'gate.json'));
        const gates = g.err.split('\n').filter(l => l.includes(' > 0 for '));
        assert.ok(gates.length >= 10);
        assert.deepEqual(duplicates(gates.map(l => l.split(' for ')[1]!)), []);
    });

    it("preview: the table shows each question's variant, so no row looks duplicated", async () => {
        const r = await cli('preview', spec, '--suite', 'olympics');
        const rows = r.out
            .split('\n')
            .slice(1)
            .map(l => l.slice(18).replace(/\s+/g, ' '));
        assert.ok(rows.length > 100);
        assert.deepEqual(duplicates(rows), []);
        assert.ok(rows.some(l => l.includes('few_shot(3)')));
    });
});
