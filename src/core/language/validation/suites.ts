import type { ValidationAcceptor } from 'langium';
import {
    isQuota,
    isSample,
    isSuiteProbes,
    isSuiteModels,
    type Normaliser,
    type Quota,
    type Sample,
    type Suite,
    type Value,
    type Variant,
} from '../generated/ast.js';
import { didYouMean, suggestionData } from './suggest.js';

const VARIANTS = ['zero_shot', 'few_shot', 'cot', 'augment'] as const;

const positiveInt = (n: number | undefined): boolean => n !== undefined && Number.isInteger(n) && n > 0;

export function checkSuiteShape(suite: Suite, accept: ValidationAcceptor): void {
    if (!suite.members.some(m => isSuiteProbes(m) && m.probes.length > 0)) {
        accept('error', `Suite ${suite.name} names no probe; add a line such as 'probes ${'<probe name>'}'.`, {
            node: suite,
            property: 'name',
            code: 'suite-no-probes',
        });
    }
    if (!suite.members.some(isSuiteModels)) {
        accept('warning', `Suite ${suite.name} names no model; runs will need --model. Add 'models <model name>'.`, {
            node: suite,
            property: 'name',
            code: 'suite-no-models',
        });
    }
    const samples = suite.members.filter(isSample);
    for (const extra of samples.slice(1))
        accept('warning', 'The suite has more than one sample line; the last one wins.', {
            node: extra,
            code: 'duplicate-setting',
        });
    const listed = new Set(suite.members.filter(isSuiteProbes).flatMap(m => m.probes.map(p => p.$refText)));
    for (const q of suite.members.filter(isQuota)) {
        if (q.probe?.ref && !listed.has(q.probe?.$refText))
            accept('warning', `Probe ${q.probe?.$refText} has a quota but is not in this suite's probes.`, {
                node: q,
                property: 'probe',
                code: 'quota-unused',
            });
    }
}

export function checkSample(sample: Sample, accept: ValidationAcceptor): void {
    if (sample.mode !== 'all' && sample.count === undefined) {
        accept('error', `'sample ${sample.mode}' needs a count, e.g. 'sample ${sample.mode} 100'.`, {
            node: sample,
            property: 'mode',
            code: 'sample-count-missing',
        });
    }
    if (sample.count !== undefined && !positiveInt(sample.count))
        accept('error', `The sample count must be a positive integer, not ${sample.count}.`, {
            node: sample,
            property: 'count',
            code: 'sample-count',
        });
    if (sample.mode === 'all' && sample.count !== undefined)
        accept('warning', "'sample all' takes every question; the count is ignored.", {
            node: sample,
            property: 'count',
            code: 'sample-count-ignored',
        });
    if (sample.seed !== undefined && !(Number.isInteger(sample.seed) && sample.seed >= 0))
        accept('error', `The seed must be a non-negative integer, not ${sample.seed}.`, {
            node: sample,
            property: 'seed',
            code: 'sample-seed',
        });
}

export function checkQuota(quota: Quota, accept: ValidationAcceptor): void {
    if (!positiveInt(quota.count))
        accept('error', `A quota must be a positive integer, not ${quota.count}.`, {
            node: quota,
            property: 'count',
            code: 'quota-count',
        });
}

export function checkVariant(variant: Variant, accept: ValidationAcceptor): void {
    if (!(VARIANTS as readonly string[]).includes(variant.kind)) {
        accept(
            'error',
            `Unknown prompt variant '${variant.kind}'.${didYouMean(variant.kind, VARIANTS)} Variants: zero_shot, few_shot(n), cot, augment from Relation.attribute.`,
            { node: variant, property: 'kind', code: 'unknown-variant', data: suggestionData(variant.kind, VARIANTS) },
        );
        return;
    }
    if (variant.kind === 'few_shot') {
        const n = numberOf(variant.args[0]);
        if (variant.args.length !== 1 || !positiveInt(n))
            accept('error', 'few_shot takes one positive integer, the number of demonstrations, e.g. few_shot(8).', {
                node: variant,
                property: 'kind',
                code: 'variant-args',
            });
    } else if (variant.args.length > 0) {
        accept('error', `${variant.kind} takes no arguments.`, { node: variant, property: 'args', code: 'variant-args' });
    }
    if (variant.kind === 'augment' && !variant.passage)
        accept('error', "augment needs the passage's attribute: 'variant augment from Movie.plot'.", {
            node: variant,
            property: 'kind',
            code: 'variant-args',
        });
    if (variant.kind !== 'augment' && variant.passage)
        accept('warning', `'from' is only used by augment.`, { node: variant, property: 'passage', code: 'variant-args' });
}

/** Normalisers the verifier understands, with the arguments each takes. */
const NORMALISERS: Record<string, { args: 'none' | 'int' | 'number' | 'strings'; doc: string }> = {
    name_parts: { args: 'none', doc: 'name_parts: the first or the last name alone also matches' },
    round: { args: 'int', doc: 'round(n): numbers match after rounding to n decimals' },
    truncate: { args: 'int', doc: 'truncate(n): numbers match after truncating to n decimals' },
    tolerance: { args: 'number', doc: 'tolerance(x): numbers within x match' },
    strip: { args: 'strings', doc: 'strip("FC", "CF"): these affixes are ignored' },
    strip_prefix: { args: 'strings', doc: 'strip_prefix("FC", "AC"): these words are ignored at the start of the value only' },
    month_year: { args: 'none', doc: 'month_year: dates match when written "Month, Year"' },
    split: {
        args: 'strings',
        doc: 'split("/"): each part of the value between these separators also matches ("pop/rock": "pop", "rock")',
    },
    first_word: { args: 'none', doc: 'first_word: the value\'s first word also matches ("Sterling Publishing": "Sterling")' },
    ascii: { args: 'none', doc: 'ascii: the value without its accents also matches ("Atlético": "Atletico")' },
};

export function checkNormaliser(n: Normaliser, accept: ValidationAcceptor): void {
    const spec = NORMALISERS[n.kind];
    if (!spec) {
        accept(
            'error',
            `Unknown normaliser '${n.kind}'.${didYouMean(n.kind, Object.keys(NORMALISERS))} Known: name_parts, round(n), truncate(n), tolerance(x), strip("…"), strip_prefix("…"), split("…"), first_word, ascii, month_year; or an alias list "A" = "B", or lookup R.code -> name.`,
            { node: n, property: 'kind', code: 'unknown-normaliser', data: suggestionData(n.kind, Object.keys(NORMALISERS)) },
        );
        return;
    }
    const bad = (why: string) => accept('error', `${why} (${spec.doc}).`, { node: n, property: 'kind', code: 'normaliser-args' });
    const nums = n.args.map(numberOf);
    if (spec.args === 'none' && n.args.length > 0) bad(`${n.kind} takes no arguments`);
    if (spec.args === 'int' && (n.args.length !== 1 || !(Number.isInteger(nums[0]) && nums[0]! >= 0)))
        bad(`${n.kind} takes one non-negative integer`);
    if (spec.args === 'number' && (n.args.length !== 1 || !(nums[0] !== undefined && nums[0] > 0)))
        bad(`${n.kind} takes one positive number`);
    if (spec.args === 'strings' && (n.args.length === 0 || n.args.some(a => a.$type !== 'StringValue')))
        bad(`${n.kind} takes one or more strings`);
}

function numberOf(v: Value | undefined): number | undefined {
    return v?.$type === 'NumberValue' ? (v as { value: number }).value : undefined;
}
