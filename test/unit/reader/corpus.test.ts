/**
 * The reader's labelled corpus (test/fixtures/reader/): real answers from the published ERBench logs (their
 * texts read from ../shared/data/erbench/responses by id; labels in real.json were written by reading each
 * answer), answers written in each style (written.json), and claims over a small world (claims.json).
 * Prints precision and recall per label; fails below 0.98 (answer reading) and 0.95 (claim status).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
    readChoice,
    readShort,
    readStatement,
    readYesNo,
    Linker,
    ClaimReader,
    type EntityEntry,
    type RelationPhrasing,
    type FactRow,
} from '../../../src/core/reader/index.js';

const dir = join(import.meta.dirname, '../../fixtures/reader');
const logs = join(import.meta.dirname, '../../../../shared/data/erbench/responses');

interface Expect {
    label: string;
    option?: number;
    stance?: string;
}
interface Item {
    id: string;
    reader: string;
    style?: string;
    text: string;
    options?: string[];
    options_named?: number[];
    answer_text?: string;
    expect: Expect;
}

function logBlocks(file: string): Map<string, { question: string; answer: string }> {
    const text = readFileSync(join(logs, file), 'utf8');
    const out = new Map<string, { question: string; answer: string }>();
    const re = file.includes('_mc_')
        ? /(\d+-\d)th question\n<Question>\n?([\s\S]*?)<Answer>\n?([\s\S]*?)<Gold Answer>/g
        : /\n(\d+-\d)th question\nQ: (.*?)\nA:([\s\S]*?)\nGold Answer:/g;
    for (const m of text.matchAll(re)) out.set(m[1]!, { question: m[2]!, answer: m[3]! });
    return out;
}

function corpus(): Item[] {
    const real = JSON.parse(readFileSync(join(dir, 'real.json'), 'utf8')) as (Omit<Item, 'text'> & {
        source: string;
        key: string;
    })[];
    const byFile = new Map<string, Map<string, { question: string; answer: string }>>();
    const items: Item[] = real.map(r => {
        if (!byFile.has(r.source)) byFile.set(r.source, logBlocks(r.source));
        const b = byFile.get(r.source)!.get(r.key);
        assert.ok(b, `${r.id}: not in ${r.source} (the published logs are read from ../shared)`);
        const item: Item = { ...r, text: b.answer };
        if (r.reader === 'choice') item.options = [...b.question.matchAll(/Option \d: (.*)/g)].map(m => m[1]!.trim());
        return item;
    });
    return [...items, ...(JSON.parse(readFileSync(join(dir, 'written.json'), 'utf8')) as Item[])];
}

/** What the reader gives, in the corpus's terms. */
function read(item: Item): Expect & { text?: string; named?: number[] } {
    switch (item.reader) {
        case 'yesno': {
            const r = readYesNo(item.text);
            return { label: r.label, stance: r.stance };
        }
        case 'statement': {
            const r = readStatement(item.text);
            return { label: r.label, stance: r.stance };
        }
        case 'short': {
            const r = readShort(item.text);
            return { label: r.label, stance: r.stance, text: r.text };
        }
        default: {
            const r = readChoice(item.text, item.options ?? []);
            const out: Expect & { named?: number[] } = { label: r.label, stance: r.stance };
            if (r.option !== undefined) out.option = r.option;
            if (r.options) out.named = r.options;
            return out;
        }
    }
}

/** Per label: precision and recall of (label, and for options the option) against the expected reading. */
function scores(pairs: { want: string; got: string; ok: boolean }[]): Map<string, { p: number; r: number; n: number }> {
    const labels = new Set(pairs.flatMap(x => [x.want, x.got]));
    const out = new Map<string, { p: number; r: number; n: number }>();
    for (const l of labels) {
        const tp = pairs.filter(x => x.want === l && x.got === l && x.ok).length;
        const predicted = pairs.filter(x => x.got === l).length;
        const actual = pairs.filter(x => x.want === l).length;
        out.set(l, { p: predicted ? tp / predicted : 1, r: actual ? tp / actual : 1, n: actual });
    }
    return out;
}

function print(title: string, s: Map<string, { p: number; r: number; n: number }>): void {
    console.log(`\n${title}\n${'label'.padEnd(28)} ${'n'.padStart(4)} precision recall`);
    for (const [l, x] of [...s].sort())
        console.log(`${l.padEnd(28)} ${String(x.n).padStart(4)} ${x.p.toFixed(3).padStart(9)} ${x.r.toFixed(3).padStart(6)}`);
}

describe('reader corpus', () => {
    it('reads answers: precision and recall >= 0.98 per label', () => {
        const items = corpus();
        const pairs: { want: string; got: string; ok: boolean; id: string }[] = [];
        for (const item of items) {
            const got = read(item);
            const want = item.expect;
            const key = (r: string, l: string) => `${r}:${l}`;
            let ok = got.label === want.label;
            if (ok && want.option !== undefined) ok = got.option === want.option;
            if (ok && item.options_named)
                ok = JSON.stringify([...(got.named ?? [])].sort()) === JSON.stringify([...item.options_named].sort());
            if (ok && want.stance !== undefined) ok = got.stance === want.stance;
            if (ok && item.answer_text !== undefined && want.label === 'answer') ok = got.text === item.answer_text;
            pairs.push({ want: key(item.reader, want.label), got: key(item.reader, got.label), ok, id: item.id });
            if (!ok) console.log(`misread ${item.id}: wanted ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
        }
        console.log(`\n${items.length} answers (${items.filter(i => i.id.startsWith('real-')).length} from the published logs)`);
        const s = scores(pairs);
        print('answer reading', s);
        for (const [l, x] of s) {
            assert.ok(x.p >= 0.98, `${l}: precision ${x.p.toFixed(3)} < 0.98`);
            assert.ok(x.r >= 0.98, `${l}: recall ${x.r.toFixed(3)} < 0.98`);
        }
    });

    it('reads claims: precision and recall >= 0.95 per status', () => {
        const { world, items } = JSON.parse(readFileSync(join(dir, 'claims.json'), 'utf8')) as {
            world: {
                entities: EntityEntry[];
                nouns: Record<string, string[]>;
                relations: RelationPhrasing[];
                facts: [string, string, string, number][];
            };
            items: {
                id: string;
                text: string;
                given?: string[];
                expect: { subject: string; relation: string; object: string; negated: boolean; status: string }[];
            }[];
        };
        const linker = new Linker(world.entities, world.nouns);
        const reader = new ClaimReader(linker, world.relations);
        const index = new Map<string, { id: string; row: FactRow }[]>();
        for (const [s, r, o, line] of world.facts) {
            const k = `${s}\u0000${r}`;
            if (!index.has(k)) index.set(k, []);
            index.get(k)!.push({ id: o, row: { file: `${r}.csv`, line } });
        }
        const facts = { objects: (s: string, r: string) => index.get(`${s}\u0000${r}`) ?? [] };
        const pairs: { want: string; got: string; ok: boolean }[] = [];
        let total = 0;
        for (const item of items) {
            const got = reader.read(item.text, facts, item.given ?? []);
            const key = (c: { subject: string; relation: string; object: string; negated: boolean }) =>
                `${c.subject}|${c.relation}|${c.object}|${c.negated}`;
            const want = item.expect.map(c => ({ k: key(c), status: c.status }));
            const have = got.map(c => ({
                k: key({ subject: c.subject.id, relation: c.relation, object: c.object.id, negated: c.negated }),
                status: c.status,
            }));
            const used = new Set<number>();
            for (const w of want) {
                const at = have.findIndex((h, i) => !used.has(i) && h.k === w.k);
                if (at >= 0) {
                    used.add(at);
                    pairs.push({ want: w.status, got: have[at]!.status, ok: have[at]!.status === w.status });
                } else pairs.push({ want: w.status, got: 'none', ok: false });
                if (at < 0 || have[at]!.status !== w.status)
                    console.log(`claim misread ${item.id}: wanted ${w.k} ${w.status}, got ${JSON.stringify(have)}`);
            }
            have.forEach((h, i) => {
                if (!used.has(i)) {
                    pairs.push({ want: 'none', got: h.status, ok: false });
                    console.log(`extra claim ${item.id}: ${h.k} ${h.status}`);
                }
            });
            total += item.expect.length;
        }
        console.log(`\n${items.length} answers, ${total} expected claims`);
        const s = scores(pairs);
        s.delete('none');
        print('claim status', s);
        for (const [l, x] of s) {
            assert.ok(x.p >= 0.95, `${l}: precision ${x.p.toFixed(3)} < 0.95`);
            assert.ok(x.r >= 0.95, `${l}: recall ${x.r.toFixed(3)} < 0.95`);
        }
    });
});
