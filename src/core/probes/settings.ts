/**
 * Settings every probe reads whatever its family (generation's `limit`; the model reader's `read_with` and
 * `decide_by`, read by src/core/verify/model-read.ts and the rule family's extraction), and the suite's own
 * settings that generation reads (`seed`, `limit`). A family's own settings are its `settings`; the models' limits a
 * suite may set are model settings marked `suite` (src/core/models/settings.ts).
 */
import { declareSettings } from '../spec/settings.js';

export const PROBE_SETTINGS = declareSettings('probe', {
    limit: {
        type: 'integer',
        min: 1,
        doc: "The most rows this probe asks about, whatever the suite samples (default: the suite's limit, else every row).",
    },
    read_with: {
        type: 'text',
        doc: "A model of the spec that reads every answer too (JSON mode): the label, the option chosen, the short answer or the claims, as the family's answers are; the report shows how often it agrees with the pattern reader. Default: none.",
    },
    decide_by: {
        type: 'text',
        values: ['patterns', 'reader'],
        doc: "Which reader decides the verdict when `read_with` is set: patterns (default) or reader (the model reader). On rule probes it also says whether `extract_with`'s triples decide (reader, the default there) or are only compared.",
    },
});

export const SUITE_SETTINGS = declareSettings('suite', {
    seed: {
        type: 'integer',
        doc: 'Seeds choice falsification, demonstrations and `sample random` when the sample names no seed (default 0).',
    },
    limit: { type: 'integer', min: 1, doc: "The most rows each probe of the suite asks about (a probe's own `limit` wins)." },
    facts: {
        type: 'integer',
        min: 1,
        doc: "Paired asking (docs/facts.md): N facts drawn at random (seeded by `seed`) among those two or more of the suite's probes test, and every probe asks only its questions about them, so that the families' verdicts pair up by fact. Default: no draw.",
    },
});
