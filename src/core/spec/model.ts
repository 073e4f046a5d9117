/**
 * The spec as plain data: what every other room of the engine (data, kg, probes, models, verify) reads.
 * Built from the linked Langium AST by `buildSpecModel`; nothing here refers to Langium.
 */

/** 0-based line and character, as in LSP. */
interface Position {
    line: number;
    character: number;
}
export interface Range {
    start: Position;
    end: Position;
}
/** Where something is written: an absolute file path and a range in it. */
export interface SpecLocation {
    file: string;
    range: Range;
}

export type ScalarType = 'text' | 'int' | 'real' | 'bool' | 'date';
export interface AttrType {
    scalar: ScalarType;
    list: boolean;
}

export type SettingValue = string | number | boolean | SettingValue[];
export type Settings = Record<string, SettingValue>;

/** What a setting's value is: a number, a whole number, a text (a string or a bare name), or true / false. */
type SettingType = 'number' | 'integer' | 'text' | 'boolean';

/**
 * One setting, declared once by the room that reads it (src/core/spec/settings.ts `declareSettings`): `check` and
 * the editor validate every value against it (a located error with the closest allowed value), completion offers
 * its name and values, hover shows its doc, docs/language.md's settings tables are written from it, and the room
 * reads it through the typed accessor made from the same declaration (never by its name as a string).
 */
export interface SettingDecl {
    readonly name: string;
    readonly type: SettingType;
    /** It takes a list `[a, b]` of such values (a single value counts as a list of one). */
    readonly list?: boolean;
    /** The values a text setting allows; anything else is an error naming the closest. */
    readonly values?: readonly string[];
    /** A text setting that `false` turns off: `false` reads as this text (csv's `quote false` is `quote ""`). */
    readonly off?: string;
    /** Bounds of a number (inclusive); `above` is an exclusive lower bound. */
    readonly min?: number;
    readonly above?: number;
    readonly max?: number;
    /** A number setting's named values: a word read as its number (a paper's preset: statement's `negatives paper` is 1). */
    readonly named?: Readonly<Record<string, number>>;
    /** The value when the block does not set it (none: the reader decides, as the doc says). */
    readonly default?: SettingValue;
    /**
     * The block it is written in: `suite`, `model`, `probe` (every probe), `probe <kind>` (a family's), `source
     * <format>`. Filled in by `declareSettings`; a family's plain list leaves it out (its scope is its kind).
     */
    readonly scope?: string;
    /** A model setting a suite may set too, for every model it runs that does not set its own. */
    readonly suite?: boolean;
    /** One line in the user's words: what it does and its default. */
    readonly doc: string;
}

export interface SourceDecl {
    name: string;
    format: 'csv' | 'sqlite' | 'json' | 'jsonl' | 'postgres';
    /** Absolute path, resolved relative to the spec file that declares it (postgres: the connection URL, as written). */
    path: string;
    table?: string;
    query?: string;
    /** csv: delimiter, quote, header (default true), encoding, list_separator (default ","); postgres: password_env, statement_timeout (ms), version_column. */
    settings: Settings;
    /** `as of 2019`: when the data was true (a relation's own `as of` wins). */
    asOf?: AsOfDecl;
    loc: SpecLocation;
}

/** `as of 2019` / `as of "June 2019"`: the time the data was true; `year` is the year it names. */
export interface AsOfDecl {
    text: string;
    year: number;
    loc: SpecLocation;
}

/** The year `as of` names: the number itself (four digits), or the one four-digit year a date text holds. */
export function asOfYear(year: number | undefined, text: string | undefined): number | undefined {
    if (year !== undefined) return Number.isInteger(year) && year >= 1000 && year <= 9999 ? year : undefined;
    const years = [...(text ?? '').matchAll(/(?<!\d)(\d{4})(?!\d)/g)].map(m => Number(m[1]));
    return years.length === 1 ? years[0] : undefined;
}

export interface AttributeDecl {
    name: string;
    type: AttrType;
    /** Source column; defaults to the attribute name. */
    column: string;
    label?: string;
    unit?: string;
    loc: SpecLocation;
}

export interface RelationDecl {
    name: string;
    source: string;
    /** Keep one row per distinct combination of the attribute values (a projection of a denormalised file). */
    distinct: boolean;
    label?: string;
    attributes: AttributeDecl[];
    keys: string[][];
    /** Per key (same index): `known duplicates N`, how many repeated key values the data is known to hold (not an error up to N). */
    knownDuplicates?: number[];
    /** Closed world (`complete`): a fact absent from the data is false, so rules may negate it. */
    complete?: boolean;
    /** `during (begin, end)`: each row holds over the years begin..end (temporal facts, src/core/rules/temporal.ts). */
    during?: { begin: string; end: string };
    /** `as of 2019` on the relation (else its source's): when the data was true. */
    asOf?: AsOfDecl;
    loc: SpecLocation;
}

export interface FdDecl {
    /** Declared name (`as name`), if any. */
    name?: string;
    /** Stable identifier: the name, or `Relation: a, b -> c`. */
    id: string;
    relation: string;
    lhs: string[];
    rhs: string[];
    /** `known violations N`: how many groups the data is known to break the FD in (not an error up to N; still skipped). */
    known?: number;
    loc: SpecLocation;
}

export interface AttributeTupleRef {
    relation: string;
    attributes: string[];
}

export interface FkDecl {
    name?: string;
    /** Stable identifier: the name, or `From.a -> To.b`. */
    id: string;
    from: AttributeTupleRef;
    to: AttributeTupleRef;
    /** Relationship properties (`symmetric`, `transitive`, `inverse NAME`, `phrase`, `cap`, `sample`), for rules. */
    properties?: EdgeProperties;
    loc: SpecLocation;
}

/** Properties of an fk edge or a rule: how rules extend it and how questions phrase it (src/core/rules). */
export interface EdgeProperties {
    symmetric?: SpecLocation;
    transitive?: SpecLocation;
    inverse?: { name: string; text?: string; loc: SpecLocation };
    /** "{subject} plays for {object}" (fks) or with the rule's parameter names ("{p} and {q} play together"). */
    phrase?: { text: string; loc: SpecLocation };
    /** At most this many derived facts (a seeded sample past it): `cap N` or `sample N` is required wherever recursion can run unbounded. */
    cap?: { value: number; loc: SpecLocation };
    /** A seeded random sample of this many derived facts: a bound like `cap`, asked for rather than hit. */
    sample?: { value: number; loc: SpecLocation };
}

type RuleComparisonOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** A term in a rule: a variable, an attribute of a variable's row (`a.director`), or a constant. */
export type RuleTermDecl =
    | { kind: 'var'; name: string; attribute?: string; loc: SpecLocation }
    | { kind: 'const'; value: string | number; loc: SpecLocation };

export type RuleLiteralDecl =
    | { kind: 'atom'; pred: string; args: RuleTermDecl[]; loc: SpecLocation }
    | { kind: 'not'; pred: string; args: RuleTermDecl[]; loc: SpecLocation }
    | { kind: 'compare'; op: RuleComparisonOp; left: RuleTermDecl; right: RuleTermDecl; loc: SpecLocation };

/** `rule NAME(a: R, b: S) :- body` — one clause; clauses sharing a name form one rule. */
export interface RuleDecl {
    name: string;
    params: { name: string; type: string; loc: SpecLocation }[];
    body: RuleLiteralDecl[];
    properties: EdgeProperties;
    loc: SpecLocation;
}

export interface AttributeRef {
    relation: string;
    attribute: string;
}

export type AliasRuleDecl =
    | { kind: 'list'; value: string; alternatives: string[]; loc: SpecLocation }
    | { kind: 'lookup'; relation: string; key: string; value: string; loc: SpecLocation }
    /** Named normalisers: name_parts, round(n), truncate(n), tolerance(x), strip("FC", ...), split("/"), first_word, ascii, month_year. */
    | { kind: 'normaliser'; name: string; args: SettingValue[]; loc: SpecLocation };

export interface AliasDecl {
    target: AttributeRef;
    rules: AliasRuleDecl[];
    loc: SpecLocation;
}

type GoldDecl = { kind: 'yes' } | { kind: 'no' } | { kind: 'when'; condition: string };

export interface PhrasingDecl {
    /** basic, negated, or the user's own name. */
    name: string;
    gold: GoldDecl;
    /** Template text with {placeholders}. */
    text: string;
    loc: SpecLocation;
}

/** A registered probe family's kind (src/core/probes/registry.ts: binary, choice, path, knows, …). */
export type ProbeKind = string;

export interface ProbeDecl {
    name: string;
    kind: ProbeKind;
    /** binary / choice: the FD id the probe uses. */
    fd?: string;
    /** path: the FK steps, each `Relation.fkAttribute`, then the end attribute. */
    path?: AttributeRef[];
    /** rule: the rule whose derived facts are asked about (`probe NAME rule using RULE`). */
    rule?: string;
    /** knows, open: the relation whose entities are probed. */
    relation?: string;
    /** open: `about A with B` — questions over pairs of an A row and the B row it is FK-linked with. */
    pair?: string;
    phrasings: PhrasingDecl[];
    stems: { text: string; loc: SpecLocation }[];
    options: { attribute: string; text: string; loc: SpecLocation }[];
    /** knows: the prompt's clauses; `when` keeps a clause only for rows where the condition holds. */
    asks: { text: string; when?: string; loc: SpecLocation }[];
    settings: Settings;
    loc: SpecLocation;
}

export interface ModelDecl {
    name: string;
    /** openai, azure, ollama, vllm, lmstudio, llamacpp, openrouter, replay, offline. */
    provider: string;
    /** id, endpoint, temperature, max_tokens, seed, samples, key_env, price_input, price_output, file, format, ... */
    settings: Settings;
    loc: SpecLocation;
}

export interface SampleDecl {
    mode: 'first' | 'random' | 'all';
    count?: number;
    seed?: number;
}

export interface VariantDecl {
    /** zero_shot, few_shot(n), cot, augment — with `from Relation.attribute` for the passage. */
    kind: string;
    args: SettingValue[];
    passage?: AttributeRef;
    loc: SpecLocation;
}

export interface SuiteDecl {
    name: string;
    probes: string[];
    models: string[];
    sample: SampleDecl;
    quotas: Record<string, number>;
    variants: VariantDecl[];
    settings: Settings;
    loc: SpecLocation;
}

export interface SpecModel {
    /** The entry file and every file it imports. */
    files: string[];
    sources: SourceDecl[];
    relations: RelationDecl[];
    fds: FdDecl[];
    fks: FkDecl[];
    aliases: AliasDecl[];
    probes: ProbeDecl[];
    models: ModelDecl[];
    suites: SuiteDecl[];
    /** Logic rules (src/core/rules); absent in specs built by hand before rules existed. */
    rules?: RuleDecl[];
}

export function findFd(spec: SpecModel, id: string): FdDecl | undefined {
    return spec.fds.find(f => f.id === id);
}

export function aliasesOf(spec: SpecModel, ref: AttributeRef): AliasRuleDecl[] {
    return spec.aliases
        .filter(a => a.target.relation === ref.relation && a.target.attribute === ref.attribute)
        .flatMap(a => a.rules);
}

export function fdId(relation: string, lhs: string[], rhs: string[]): string {
    return `${relation}: ${lhs.join(', ')} -> ${rhs.join(', ')}`;
}

export function fkId(from: AttributeTupleRef, to: AttributeTupleRef): string {
    const side = (t: AttributeTupleRef) =>
        t.attributes.length === 1 ? `${t.relation}.${t.attributes[0]}` : `${t.relation}(${t.attributes.join(', ')})`;
    return `${side(from)} -> ${side(to)}`;
}

export type Severity = 'error' | 'warning' | 'info' | 'hint';

/** A problem found in a spec or its data, with where it is and (in the message) how to fix it. */
export interface SpecDiagnostic {
    file: string;
    range: Range;
    severity: Severity;
    code: string;
    message: string;
    /** For quick fixes: the data rows a data diagnostic is about, and the real column names of its source. */
    data?: { rows?: { file: string; line: number }[]; columns?: string[] };
}
