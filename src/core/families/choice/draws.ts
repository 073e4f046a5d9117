/**
 * Multiple choice as published (`draws_from "<log>"` on a choice probe): which option the ERBench authors
 * falsified, and its false value, were random draws recorded only in their log. To verify their answers the
 * questions must be those draws: each row's question for stem K is taken from the log's record with the same
 * stem text (the entity) and index K — its option order, its falsified option (`<Gold Answer>`) and the false
 * value read back out of that option's text — and then verified against the data as usual. A record whose
 * true options do not say what the data says is not used (the data changed since), and is counted.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { loggedOptions, loggedStem, parseErbenchChoiceLog, type ErbenchLogRecord } from '../../models/erbench-log.js';
import type { ParsedTemplate } from '../../spec/template.js';
import { textKey } from '../../models/replay.js';

export interface RecordedDraw {
    /** The options as logged, in order. */
    options: string[];
    /** For each logged option, the index of the probe's option (attribute) it states. */
    attributes: number[];
    /** 1-based number of the falsified option. */
    gold: number;
    /** The false value written in the falsified option. */
    fake: string;
}

export interface OptionTemplates {
    attribute: string;
    template: (stem: number) => ParsedTemplate;
}

/** The first logged question that did not fit, with what the spec would have asked there. */
export interface DrawMismatch {
    /** The log's entity index N and stem index K ("N-Kth question"). */
    row: number;
    stem: number;
    /** 1-based option number, or undefined when the stems themselves differ. */
    option?: number;
    logged: string;
    expected: string;
}

/** The log's records by stem index and stem text; several records of one stem (a repeated title) by row. */
export class RecordedDraws {
    private readonly byStem = new Map<string, ErbenchLogRecord[]>();
    /** Rows whose recorded question could not be used, and why (shown once generation is done). */
    readonly unusable: string[] = [];
    matched = 0;
    /** How many questions the log holds. */
    readonly records: number;
    /** The first record whose options are not what the data says, and the first stem asked that the log lacks. */
    firstOption?: DrawMismatch;
    firstStem?: DrawMismatch;
    private readonly byRowStem = new Map<string, ErbenchLogRecord>();

    constructor(
        records: ErbenchLogRecord[],
        readonly file: string,
    ) {
        this.records = records.length;
        for (const r of records) {
            this.byRowStem.set(`${r.row}\u0000${r.phrasing}`, r);
            const key = `${r.phrasing}\u0000${textKey(loggedStem(r.question))}`;
            const list = this.byStem.get(key);
            if (list) list.push(r);
            else this.byStem.set(key, [r]);
        }
    }

    static read(file: string, specFile: string): RecordedDraws | string {
        const resolved = path.resolve(path.dirname(specFile), file);
        try {
            return new RecordedDraws(parseErbenchChoiceLog(readFileSync(resolved, 'utf8')), resolved);
        } catch (e) {
            return `draws_from: ${resolved} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'}); give the path of an ERBench multiple-choice log, relative to the spec.`;
        }
    }

    /**
     * The draw recorded for stem `stem` whose stem text is `stemText`; `row` (the data row's index) picks among
     * records of a repeated stem. `truth(i, text)`: does logged option text state option i's true value?
     */
    find(
        stem: number,
        stemText: string,
        row: number,
        options: OptionTemplates[],
        truth: (option: number, text: string) => boolean,
        read: (option: number, stem: number, text: string) => string | undefined,
        expected?: (option: number) => string,
    ): RecordedDraw | undefined {
        const list = this.byStem.get(`${stem}\u0000${textKey(stemText)}`);
        if (!list) {
            // The log's question for this row and stem, if it has one, asked about something else (or in other words).
            const same = this.byRowStem.get(`${row}\u0000${stem}`);
            if (same && !this.firstStem) this.firstStem = { row, stem, logged: loggedStem(same.question), expected: stemText };
            return undefined;
        }
        const record = list.find(r => r.row === row) ?? list[0]!;
        const gold = Number(record.gold);
        const texts = loggedOptions(record.question);
        if (!Number.isInteger(gold) || gold < 1 || gold > texts.length) {
            this.unusable.push(`${stemText}: no falsified option recorded`);
            return undefined;
        }
        const attributes: number[] = [];
        let fake: string | undefined;
        for (const [i, text] of texts.entries()) {
            const isFalse = i + 1 === gold;
            // The option it states: the template that reads a value out of it (the true one, unless it is the false option).
            const at = options.findIndex(
                (_, o) => !attributes.includes(o) && (isFalse ? read(o, stem, text) !== undefined : truth(o, text)),
            );
            if (at < 0) {
                this.unusable.push(`${stemText}: option ${i + 1} "${text}" is not what the data says`);
                this.firstOption ??= {
                    row: record.row,
                    stem,
                    option: i + 1,
                    logged: text,
                    expected: expected?.(Math.min(i, options.length - 1)) ?? '',
                };
                return undefined;
            }
            attributes.push(at);
            if (isFalse) fake = read(at, stem, text);
        }
        if (fake === undefined || truth(attributes[gold - 1]!, texts[gold - 1]!)) {
            this.unusable.push(`${stemText}: the falsified option states the true value`);
            return undefined;
        }
        this.matched++;
        return { options: texts, attributes, gold, fake };
    }
}

/**
 * Why a log gave no question (the error `draws-unmatched`): how many questions it holds, how many fit, and the first
 * that did not, as a word diff of the logged text against the spec's.
 */
export function unmatchedMessage(draws: RecordedDraws, probe: string): string {
    const first = draws.firstOption ?? draws.firstStem;
    const head = `draws_from: none of the ${draws.records} questions logged in ${draws.file} matches a question of ${probe} (0 matched).`;
    if (!first) return `${head} No logged stem is the stem of a row of the data, and no row's index has a logged question.`;
    const where =
        first.option === undefined
            ? `the stem of logged question ${first.row}-${first.stem}`
            : `option ${first.option} of logged question ${first.row}-${first.stem}`;
    return `${head} First mismatch, ${where} ([-logged-] {+spec+}): ${wordDiff(first.logged, first.expected)}`;
}

/** A one-line word diff: the common words kept, the rest as [-removed-] {+added+}. */
function wordDiff(a: string, b: string): string {
    const x = a.split(/(\s+)/);
    const y = b.split(/(\s+)/);
    let pre = 0;
    while (pre < x.length && pre < y.length && x[pre] === y[pre]) pre++;
    let post = 0;
    while (post < x.length - pre && post < y.length - pre && x[x.length - 1 - post] === y[y.length - 1 - post]) post++;
    const mid = (w: string[]) =>
        w
            .slice(pre, w.length - post)
            .join('')
            .trim();
    const removed = mid(x);
    const added = mid(y);
    if (!removed && !added) return a;
    const keep = (w: string[]) => w.join('');
    return `${keep(x.slice(0, pre))}${removed ? `[-${removed}-]` : ''}${removed && added ? ' ' : ''}${added ? `{+${added}+}` : ''}${keep(x.slice(x.length - post))}`;
}

/**
 * Reads the value an option text gives its attribute: the template's text parts must match around the
 * attribute's placeholder (`Directed by {director}.` reads "James Cameron" out of "Directed by James Cameron.").
 */
export function readOption(template: ParsedTemplate, attribute: string, text: string): string | undefined {
    let pattern = '^';
    let groups = 0;
    let target = -1;
    for (const part of template.parts) {
        if (part.kind === 'text') {
            pattern += escape(part.text);
            continue;
        }
        groups++;
        if (target < 0 && part.expr.kind === 'name' && part.expr.name === attribute) target = groups;
        pattern += '(.+?)';
    }
    if (target < 0) return undefined;
    const m = new RegExp(`${pattern}$`, 's').exec(text.trim());
    return m ? m[target] : undefined;
}

function escape(s: string): string {
    return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
