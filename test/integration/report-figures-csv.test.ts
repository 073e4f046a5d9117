/**
 * Issue 27 item 13: the CSV report carries every figure the JSON (and md / html) carry — the families' own (statement
 * T / I / C, evidence exact match, F1 and stale rate, open claim shares and SC2D / SD2, rule categories) and the shared
 * extras (choice multiple-answer and binding errors, path R-ext and per-hop figures) — and JUnit carries them as
 * properties. Each example is run with the offline simulator through the real CLI; every figure of a JSON group is
 * looked up in the CSV row of the same group.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cli } from '../support/cli-process.js';
import { tempDir } from '../support/temp.js';

const repo = path.resolve(import.meta.dirname, '..', '..');

type Json = Record<string, unknown> & {
    model: string;
    probe: string;
    kind: string;
    phrasing: string;
    mode: string;
    variantId: string;
};

/** The CSV as records keyed by header, and the JSON groups, of one run. */
async function reports(
    spec: string,
    dir: string,
    extra: string[] = [],
): Promise<{ csv: Record<string, string>[]; header: string[]; groups: Json[]; junit: string }> {
    const db = path.join(dir, `${path.basename(spec)}.db`);
    const run = await cli(['run', spec, '--db', db, '--yes', ...extra], {});
    assert.ok(run.code === 0 || run.code === 1, run.stderr);
    const csvText = (await cli(['report', '--db', db, '--format', 'csv'], {})).stdout;
    const groups = (JSON.parse((await cli(['report', '--db', db, '--format', 'json'], {})).stdout) as { groups: Json[] }).groups;
    const junit = (await cli(['report', '--db', db, '--format', 'junit'], {})).stdout;
    const [head, ...rows] = csvText.trim().split('\n');
    const header = splitCsv(head!);
    return { header, groups, junit, csv: rows.map(r => Object.fromEntries(splitCsv(r).map((v, i) => [header[i]!, v]))) };
}

function splitCsv(line: string): string[] {
    const out: string[] = [];
    let cur = '',
        quoted = false;
    for (let i = 0; i < line.length; i++) {
        const c = line[i]!;
        if (quoted) {
            if (c === '"' && line[i + 1] === '"') {
                cur += '"';
                i++;
            } else if (c === '"') quoted = false;
            else cur += c;
        } else if (c === '"') quoted = true;
        else if (c === ',') {
            out.push(cur);
            cur = '';
        } else cur += c;
    }
    return [...out, cur];
}

const rowOf = (csv: Record<string, string>[], g: Json) =>
    csv.find(
        r =>
            r.model === g.model &&
            r.probe === g.probe &&
            r.phrasing === g.phrasing &&
            r.mode === g.mode &&
            r.variant_id === g.variantId,
    );

/** Every leaf of a family's `figures` field (a figure reads as its value), by dotted path. */
function leaves(v: unknown, at: string[], out: [string, unknown][]): [string, unknown][] {
    if (v === null || typeof v !== 'object') {
        out.push([at.join('.'), v]);
        return out;
    }
    if (Array.isArray(v)) return out;
    if ('value' in v && 'k' in v && 'n' in v) {
        out.push([at.join('.'), (v as { value: unknown }).value]);
        return out;
    }
    for (const [k, x] of Object.entries(v)) leaves(x, [...at, k], out);
    return out;
}

function same(label: string, csv: string | undefined, json: unknown): void {
    assert.ok(csv !== undefined, `${label}: no CSV column`);
    if (typeof json === 'number') assert.ok(Math.abs(Number(csv) - json) <= 1e-4, `${label}: csv ${csv}, json ${json}`);
    else if (json === null) assert.ok(csv === 'n/a' || csv === '', `${label}: csv ${csv}, json null`);
    else assert.equal(csv, String(json), label);
}

describe('the CSV and JUnit reports carry every figure the JSON carries', () => {
    const dir = tempDir('hp-report-figures-');
    for (const example of ['evidence', 'open', 'rules', 'soccer', 'statements', 'movie'])
        cpSync(path.join(repo, 'examples', example), path.join(dir, example), { recursive: true });

    for (const [example, key] of [
        ['evidence', 'evidence'],
        ['open', 'open'],
        ['rules', 'rules'],
    ] as const) {
        it(`${example}: every figure of the family's slot is a CSV column with the same value, and a JUnit property`, async () => {
            const r = await reports(path.join(dir, example, `${example}.probe`), dir);
            const withFigures = r.groups.filter(g => g.mode === 'all' && g[key] !== undefined && !g.na);
            assert.ok(withFigures.length > 0, `${example} has ${key} figures`);
            for (const g of withFigures) {
                const row = rowOf(r.csv, g);
                assert.ok(row, `a CSV row for ${g.probe} ${g.phrasing}`);
                for (const [name, value] of leaves(g[key], [key], []))
                    same(`${example} ${g.probe} ${g.phrasing} ${name}`, row[name], value);
            }
            const first = leaves(withFigures[0]![key], [key], []).find(([, v]) => typeof v === 'number')!;
            assert.match(
                r.junit,
                new RegExp(
                    `<property name="${withFigures[0]!.phrasing} ${first[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" value="`,
                ),
            );
        });
    }

    it("statements: T / I / C spelt out, equal to the JSON's; no column named C", async () => {
        const r = await reports(path.join(dir, 'statements', 'statements.probe'), dir);
        assert.ok(!r.header.includes('C'));
        for (const g of r.groups.filter(x => x.mode === 'all' && x.statements)) {
            const s = g.statements as {
                triples: number;
                T: { value: number };
                I: { value: number };
                C: { value: number; paper: number };
            };
            const row = rowOf(r.csv, g)!;
            same('triples', row.triples, s.triples);
            same('truthfulness', row.truthfulness, s.T.value);
            same('informativeness', row.informativeness, s.I.value);
            same('correctness', row.correctness, s.C.value);
            same('correctness_paper', row.correctness_paper, s.C.paper);
            assert.equal(row.R, 'n/a', 'R does not apply to statements');
        }
    });

    it("paths and multiple choice: R-ext, each hop's R and AR-ext, multiple-answer and binding errors", async () => {
        const movie = await reports(path.join(dir, 'movie', 'movie.probe'), dir);
        const paths = movie.groups.filter(g => g.mode === 'all' && g.rExt && !g.na);
        assert.ok(paths.length > 0);
        for (const g of paths) {
            const row = rowOf(movie.csv, g)!;
            same('r_ext', row.r_ext, (g.rExt as { value: number }).value);
            const hops = g.hops as { hop: number; R: number; AR: number }[];
            assert.equal(row.r_by_hop, hops.map(h => `${h.hop}: ${h.R}`).join('; '));
            assert.equal(row.ar_ext_by_hop, hops.map(h => `${h.hop}: ${h.AR}`).join('; '));
        }
        assert.match(movie.junit, /<property name="[^"]+ r_ext" value="[\d.]+"\/>/);
        const choiceDir = tempDir('hp-report-choice-');
        writeFileSync(
            path.join(choiceDir, 'films.csv'),
            [
                'title,year,director,country',
                'Avatar,2009,James Cameron,USA',
                'Up,2009,Pete Docter,USA',
                'Spectre,2015,Sam Mendes,UK',
                'Heat,1995,Michael Mann,USA',
            ].join('\n'),
        );
        writeFileSync(
            path.join(choiceDir, 'choice.probe'),
            `source films csv "films.csv"
relation Movie from films { title: text  year: int  director: text  country: text  key (title, year) }
fd Movie: title, year -> director, country as facts
probe mc choice using facts { stem "Which is false about {title} ({year})?" }
model simulator offline { seed 2 }
suite s { probes mc  models simulator }
`,
        );
        const choice = await reports(path.join(choiceDir, 'choice.probe'), choiceDir);
        for (const g of choice.groups.filter(x => x.mode === 'all' && x.multiple)) {
            const row = rowOf(choice.csv, g)!;
            same('multiple_answer', row.multiple_answer, (g.multiple as { value: number }).value);
            same('binding', row.binding, (g.binding as { value: number }).value);
        }
    });
});
