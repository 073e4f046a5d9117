// Issue 24's reproduced defects, each through the command line a user types (so the same file runs against any
// version of the engine): swaps that leave the answer in a link's slug or behind a curly apostrophe (item 1), a
// replacement inside or around the old answer (item 2), a name part rewritten inside another name (item 3), swaps of
// another semantic type (item 4), a supporting sentence cut at a URL (item 6), the paper's question sub-types
// (item 10) and setting values that passed `check` and did nothing (item 11).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliArgs } from '../support/cli-path.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const cli = (args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd: repo, encoding: 'utf8', timeout: 240_000 });

interface Asked {
    phrasing: string;
    gold: { answer: string };
    messages: { content: string }[];
    evidence?: { original: string; passage: string };
}

/** The words of a text as a case-, hyphen- and apostrophe-blind search sees them. */
const folded = (s: string) =>
    ` ${s
        .toLowerCase()
        .replace(/[\u2018\u2019']/g, "'")
        .replace(/[^a-z0-9']+/g, ' ')} `;

describe('evidence and open defects, through the CLI', () => {
    let dir: string;
    before(() => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-defects-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    /** Writes the items and a spec over them, previews, and returns the questions. */
    function preview(name: string, items: object[], probe: string): Asked[] {
        writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(items));
        const spec = path.join(dir, `${name}.probe`);
        writeFileSync(
            spec,
            `source items json "${name}.json"
relation Item from items { id: int  question: text  answer: text  evidence: text  retrieved: text  key (id) }
${probe}
`,
        );
        const r = cli(['preview', spec, '--format', 'jsonl']);
        assert.equal(r.status, 0, r.stderr);
        return r.stdout
            .trim()
            .split('\n')
            .filter(Boolean)
            .map(l => JSON.parse(l) as Asked);
    }
    const swapProbe =
        'probe p evidence about Item {\n    question "{question}"\n    answer answer\n    passage "{evidence}"\n    swap_with same_shape\n}';
    const item = (id: number, question: string, answer: string, evidence: string, retrieved = '') => ({
        id,
        question,
        answer,
        evidence,
        retrieved,
    });

    it("item 1: no swap keeps the old answer in a link's slug, in another case or behind a curly apostrophe", () => {
        const qs = preview(
            'markup',
            [
                item(
                    1,
                    'Which university will cover tuition?',
                    'Grand Canyon University',
                    'Students of <a href="https://news.example.com/2022/06/biden-grand-canyon-university-tuition/">Grand Canyon University</a> will pay less, GRAND CANYON UNIVERSITY said.',
                ),
                item(
                    2,
                    'Which grocery chain recalled its cookies?',
                    "Trader Joe's",
                    "Trader Joe\u2019s recalled its cookies on Friday. Shoppers at Trader Joe's were told to return them.",
                ),
                item(
                    3,
                    'Which university hired the coach?',
                    'Ohio State University',
                    'The coach joined Ohio State University in May.',
                ),
                item(
                    4,
                    'Which grocery chain opened a store?',
                    'Whole Foods Market',
                    'Whole Foods Market opened a store in Ohio.',
                ),
            ],
            swapProbe,
        );
        const swaps = qs.filter(q => q.phrasing === 'swap');
        assert.ok(swaps.length > 0, 'some swap is valid');
        for (const q of swaps)
            assert.ok(
                !folded(q.evidence!.passage).includes(folded(q.evidence!.original)),
                `${q.evidence!.original} left in: ${q.evidence!.passage}`,
            );
    });

    it('item 2: a replacement inside the old answer, or around it, is no swap', () => {
        const qs = preview(
            'containment',
            [
                item(1, 'Who wrote White Christmas?', 'Irving Berlin', 'White Christmas was written by Irving Berlin in 1940.'),
                item(2, 'Where did the summit take place?', 'Berlin', 'The summit took place in Berlin last week.'),
            ],
            swapProbe,
        );
        const contains = (a: string, b: string) => folded(a).includes(folded(b)) || folded(b).includes(folded(a));
        for (const q of qs.filter(x => x.phrasing === 'swap'))
            assert.ok(!contains(q.gold.answer, q.evidence!.original), `${q.evidence!.original} → ${q.gold.answer}`);
    });

    it('item 3: with name_parts aliases, a swap never rewrites a part of another name in the passage', () => {
        writeFileSync(
            path.join(dir, 'films.csv'),
            'title,director,star\nAvatar,James Cameron,James Franco\nJaws,Steven Spielberg,Roy Scheider\nHeat,Michael Mann,Al Pacino\n',
        );
        const spec = path.join(dir, 'films.probe');
        writeFileSync(
            spec,
            `source f csv "films.csv"
relation Film from f { title: text  director: text  star: text  key (title) }
aliases Film.director { name_parts }
probe p evidence about Film {
    question "Who directed {title}?"
    answer director
    passage "{title} was directed by {director}, starring {star}."
}
`,
        );
        const r = cli(['preview', spec, '--format', 'jsonl']);
        assert.equal(r.status, 0, r.stderr);
        const swaps = r.stdout
            .trim()
            .split('\n')
            .map(l => JSON.parse(l) as Asked)
            .filter(q => q.phrasing === 'swap');
        const avatar = swaps.find(q => q.evidence!.original === 'James Cameron');
        assert.ok(avatar, 'Avatar has a valid swap');
        assert.match(avatar.evidence!.passage, /, starring James Franco\.$/);
    });

    it("item 4: a swap keeps the answer's semantic type (an amount for an amount, a person for a person)", () => {
        const qs = preview(
            'types',
            [
                item(
                    1,
                    'How much will one trip to space cost?',
                    'about $450,000',
                    'One trip to space will cost you about $450,000, the company said.',
                ),
                item(2, 'What did the form ask about?', 'his age', 'The form asked about his age and nothing else.'),
                item(3, 'Who won the French Open?', 'Rafael Nadal', 'Rafael Nadal won the French Open on Sunday.'),
                item(4, 'Where was the final played?', 'Paris', 'The final was played in Paris on Sunday.'),
            ],
            swapProbe,
        );
        const kind = (a: string) => (/\$/.test(a) ? 'money' : a === 'his age' ? 'thing' : a === 'Paris' ? 'place' : 'person');
        for (const q of qs.filter(x => x.phrasing === 'swap'))
            assert.equal(kind(q.gold.answer), kind(q.evidence!.original), `${q.evidence!.original} → ${q.gold.answer}`);
    });

    it('item 4: among answers of one type, a swap takes one asked the same way (a city for a city) when there is one', () => {
        const cities = ['Lyon', 'Porto', 'Seville', 'Leeds', 'Bergen', 'Turin'];
        const countries = ['Peru', 'Chile', 'Kenya', 'Ghana', 'Nepal', 'Laos'];
        const qs = preview(
            'nouns',
            [
                ...cities.map((c, i) =>
                    item(i + 1, `Which city hosted summit ${i + 1}?`, c, `Summit ${i + 1} was hosted by ${c} last year.`),
                ),
                ...countries.map((c, i) =>
                    item(i + 11, `Which country signed treaty ${i + 1}?`, c, `Treaty ${i + 1} was signed by ${c} last year.`),
                ),
            ],
            swapProbe,
        );
        const swaps = qs.filter(q => q.phrasing === 'swap');
        assert.equal(swaps.length, 12);
        for (const q of swaps)
            assert.equal(
                cities.includes(q.gold.answer),
                cities.includes(q.evidence!.original),
                `${q.evidence!.original} → ${q.gold.answer}`,
            );
    });

    it('item 6: the supporting sentence of an enriched case is a whole sentence, never cut at a URL', () => {
        const qs = preview(
            'enrich',
            [
                item(
                    1,
                    'How much does a gallon of gas cost?',
                    '$5.9',
                    'Prices rose, per https://www.cnn.com/2022/06/11/business/gas-prices.html. Gas now costs $5.9 a gallon, AAA said. Drivers complained.',
                    'Gas prices in Europe rose in June as well, analysts said.\n\nThe AAA tracks fuel costs in every state every day.',
                ),
            ],
            'probe p evidence about Item {\n    question "{question}"\n    answer answer\n    passage "{evidence}"\n    perturb [enrich]\n    enrich_from retrieved\n}',
        );
        const enriched = qs.find(q => q.phrasing === 'enrich');
        assert.ok(enriched, 'an enriched case');
        // The support stands as one of the passages, whole: not the whole evidence, not a piece cut at a dot.
        assert.ok(
            enriched.evidence!.passage.split('\n\n').includes('Gas now costs $5.9 a gallon, AAA said.'),
            enriched.evidence!.passage,
        );
    });

    const movies = `source movies csv "${path.join(repo, 'examples', 'movie', 'data', 'movies.csv').replaceAll('\\', '/')}"
relation Movie from movies { title: text = "common_entity"  year: int = "entity3"  director: text = "entity2"  key (title) }
`;

    it('item 10: the paper\'s question sub-types are presets (here "hypothetical", a predictive one)', () => {
        const spec = path.join(dir, 'subtype.probe');
        writeFileSync(
            spec,
            `${movies}probe p open about Movie {\n    preset "hypothetical"\n    perturb "delete"\n    levels [0.5]\n}\n`,
        );
        const r = cli(['preview', spec, '--format', 'jsonl', '--limit', '1']);
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stdout, /What would be different if Avatar did not exist\?/);
    });

    it('item 11: a setting value the family does not have is a located error with a did-you-mean, not a silent default', () => {
        const spec = path.join(dir, 'settings.probe');
        writeFileSync(
            spec,
            `${movies}probe o open about Movie {\n    form "subgraphs"\n    perturb ["rewiring"]\n}\nprobe e evidence about Movie {\n    question "Who directed {title}?"\n    answer director\n    passage "{title} was directed by {director}."\n    swap_with sameshape\n}\n`,
        );
        const r = cli(['check', spec]);
        assert.notEqual(r.status, 0, r.stdout + r.stderr);
        const out = r.stdout + r.stderr;
        for (const [value, guess] of [
            ['subgraphs', 'subgraph'],
            ['rewiring', 'rewire'],
            ['sameshape', 'same_shape'],
        ]) {
            assert.match(out, new RegExp(`'${value}'[^\\n]*[Dd]id you mean '${guess}'`), out);
        }
    });
});
