import type { AstNode, LangiumDocument, Reference } from 'langium';
import { documentPath, locationOf } from './location.js';
import * as path from 'node:path';
import {
    isAliasList,
    isBoolValue,
    isGoldLiteral,
    isGoldWhen,
    isListValue,
    isLookup,
    isNameValue,
    isNumberValue,
    isOption,
    isPhrasing,
    isAsk,
    isStem,
    isQuota,
    isSample,
    isSetting,
    isSpec,
    isStringValue,
    isSuiteModels,
    isSuiteProbes,
    isVariant,
    isSource,
    isRelation,
    isFd,
    isFk,
    isAliases,
    isProbe,
    isModel,
    isSuite,
    isRule,
    type AsOf,
    type AttributePath,
    type AttributeTuple,
    type Setting,
    type Spec,
    type Value,
} from './generated/ast.js';
import { edgeProperties, ruleDecl } from './build-rules.js';
import {
    asOfYear,
    fdId,
    fkId,
    type AliasDecl,
    type AsOfDecl,
    type AttributeRef,
    type FdDecl,
    type FkDecl,
    type ModelDecl,
    type ProbeDecl,
    type RelationDecl,
    type SettingValue,
    type Settings,
    type SourceDecl,
    type SpecModel,
    type SuiteDecl,
} from '../spec/model.js';

export { documentPath, locationOf } from './location.js';

export function settingValue(value: Value | undefined): SettingValue {
    if (value === undefined) return '';
    if (isStringValue(value)) return value.value;
    if (isNumberValue(value)) return value.value;
    if (isBoolValue(value)) return value.value === true;
    if (isNameValue(value)) return value.value;
    if (isListValue(value)) return value.items.map(settingValue);
    return '';
}

export function settingsOf(settings: Setting[]): Settings {
    const out: Settings = {};
    for (const s of settings) if (s.name !== undefined) out[s.name] = settingValue(s.value);
    return out;
}

const refName = (r: Reference | undefined): string =>
    r?.ref ? (r.ref as unknown as { name: string }).name : (r?.$refText ?? '');

// Parts may be missing when the parser recovered from a syntax error; the model then holds empty names.
/** `as of …` as the model keeps it; undefined when absent or when it names no year (`check` says so: as-of-value). */
function asOfDecl(asOf: AsOf | undefined): AsOfDecl | undefined {
    const year = asOf && asOfYear(asOf.year, asOf.text);
    if (!asOf || year === undefined) return undefined;
    return { text: asOf.text ?? String(asOf.year), year, loc: locationOf(asOf) };
}

function attributePath(p: AttributePath | undefined): AttributeRef {
    return { relation: refName(p?.relation), attribute: refName(p?.attribute) };
}

function tuple(t: AttributeTuple | undefined) {
    return { relation: refName(t?.relation), attributes: t?.attributes.map(refName) ?? [] };
}

function resolveDataPath(doc: LangiumDocument, p: string): string {
    if (doc.uri.scheme !== 'file') return p;
    return path.resolve(path.dirname(doc.uri.fsPath), p);
}

type Declaration = SourceDecl | RelationDecl | FdDecl | FkDecl | AliasDecl | ProbeDecl | ModelDecl | SuiteDecl | RuleDeclOut;
type RuleDeclOut = ReturnType<typeof ruleDecl>;
/**
 * Each declaration node's plain data from the last build, with the place it was built at. An edit re-parses a
 * few declarations (incremental.ts); the rest are the same nodes, so an edit of one probe of a 2,000-line spec
 * builds one probe. A declaration's data is its own text (a node's text never changes), place and file, and
 * the names it references (which are its written names); a probe on an unnamed fd also reads that fd's sides and a
 * relation without its own `as of` its source's,
 * so the memo holds that node too. The data is shared between builds: nothing changes a spec model once built.
 */
const built = new WeakMap<AstNode, { line: number; character: number; target: AstNode | undefined; decl: Declaration }>();

/**
 * Turns the linked documents of a spec (its entry and every imported file) into plain data. Unresolved
 * references keep their written text so that later rooms can still report them by name.
 */
export function buildSpecModel(documents: LangiumDocument[]): SpecModel {
    const model: SpecModel = {
        files: [],
        sources: [],
        relations: [],
        fds: [],
        fks: [],
        aliases: [],
        probes: [],
        models: [],
        suites: [],
        rules: [],
    };
    for (const doc of documents) {
        const root = doc.parseResult.value;
        if (!isSpec(root)) continue;
        model.files.push(documentPath(doc.uri));
        addElements(model, doc, root);
    }
    return model;
}

function addElements(model: SpecModel, doc: LangiumDocument, root: Spec): void {
    for (const el of root.elements) {
        const at = el.$cstNode?.range.start;
        // What else the data reads: a probe on an unnamed fd reads its sides; a relation its source's `as of`.
        const target =
            isProbe(el) && isFd(el.fd?.ref) && el.fd.ref.name === undefined
                ? el.fd.ref
                : isRelation(el) && !el.asOf
                  ? el.source?.ref?.asOf
                  : undefined;
        const known = built.get(el);
        let decl: Declaration;
        if (known && at && known.line === at.line && known.character === at.character && known.target === target)
            decl = known.decl;
        else {
            decl = declaration(doc, el);
            if (at) built.set(el, { line: at.line, character: at.character, target, decl });
        }
        if (isSource(el)) model.sources.push(decl as SourceDecl);
        else if (isRelation(el)) model.relations.push(decl as RelationDecl);
        else if (isFd(el)) model.fds.push(decl as FdDecl);
        else if (isFk(el)) model.fks.push(decl as FkDecl);
        else if (isAliases(el)) model.aliases.push(decl as AliasDecl);
        else if (isProbe(el)) model.probes.push(decl as ProbeDecl);
        else if (isModel(el)) model.models.push(decl as ModelDecl);
        else if (isSuite(el)) model.suites.push(decl as SuiteDecl);
        else if (isRule(el)) model.rules!.push(decl as RuleDeclOut);
    }
}

/** One declaration as plain data. */
function declaration(doc: LangiumDocument, el: Spec['elements'][number]): Declaration {
    const loc = locationOf(el);
    if (isSource(el)) {
        const src: SourceDecl = {
            name: el.name ?? '',
            format: (el.format ?? 'csv') as SourceDecl['format'],
            path: el.format === 'postgres' ? (el.path ?? '') : resolveDataPath(doc, el.path ?? ''),
            settings: settingsOf(el.settings),
            loc,
        };
        if (el.table !== undefined) src.table = el.table;
        const asOf = asOfDecl(el.asOf);
        if (asOf) src.asOf = asOf;
        if (el.query !== undefined) src.query = el.query;
        return src;
    } else if (isRelation(el)) {
        const rel: RelationDecl = {
            name: el.name ?? '',
            source: refName(el.source),
            distinct: el.distinct ?? false,
            attributes: [],
            keys: el.keys.map(k => k.attributes.map(refName)),
            loc,
        };
        if (el.label !== undefined) rel.label = el.label;
        if (el.keys.some(k => k.known !== undefined)) rel.knownDuplicates = el.keys.map(k => k.known ?? 0);
        if (el.complete) rel.complete = true;
        const during = el.during[0]?.attributes.map(refName);
        if (during?.length === 2) rel.during = { begin: during[0]!, end: during[1]! };
        // The relation's own `as of`, else its source's (linked, so a source declared further down counts too).
        const asOf = asOfDecl(el.asOf ?? el.source?.ref?.asOf);
        if (asOf) rel.asOf = asOf;
        for (const a of el.attributes) {
            const attr: RelationDecl['attributes'][number] = {
                name: a.name ?? '',
                type: { scalar: (a.type?.element ?? 'text') as 'text', list: a.type?.list ?? false },
                column: a.column ?? a.name ?? '',
                loc: locationOf(a),
            };
            if (a.label !== undefined) attr.label = a.label;
            if (a.unit !== undefined) attr.unit = a.unit;
            rel.attributes.push(attr);
        }
        return rel;
    } else if (isFd(el)) {
        const relation = refName(el.relation);
        const lhs = el.lhs.map(refName);
        const rhs = el.rhs.map(refName);
        const fd: FdDecl = { id: el.name ?? fdId(relation, lhs, rhs), relation, lhs, rhs, loc };
        if (el.name !== undefined) fd.name = el.name;
        if (el.known !== undefined) fd.known = el.known;
        return fd;
    } else if (isFk(el)) {
        const from = tuple(el.from);
        const to = tuple(el.to);
        const fk: FkDecl = { id: el.name ?? fkId(from, to), from, to, loc };
        if (el.name !== undefined) fk.name = el.name;
        if (el.properties.length > 0) fk.properties = edgeProperties(el.properties);
        return fk;
    } else if (isAliases(el)) {
        const decl: AliasDecl = { target: attributePath(el.target), rules: [], loc };
        for (const r of el.rules) {
            const rloc = locationOf(r);
            if (isAliasList(r))
                decl.rules.push({ kind: 'list', value: r.value ?? '', alternatives: [...r.alternatives], loc: rloc });
            else if (isLookup(r))
                decl.rules.push({
                    kind: 'lookup',
                    relation: refName(r.key?.relation),
                    key: refName(r.key?.attribute),
                    value: refName(r.value),
                    loc: rloc,
                });
            else decl.rules.push({ kind: 'normaliser', name: r.kind ?? '', args: r.args.map(settingValue), loc: rloc });
        }
        return decl;
    } else if (isProbe(el)) {
        const probe: ProbeDecl = {
            name: el.name ?? '',
            kind: el.kind ?? '',
            phrasings: [],
            stems: [],
            options: [],
            asks: [],
            settings: settingsOf(el.members.filter(isSetting)),
            loc,
        };
        const target = el.fd?.ref;
        if (isRule(target)) probe.rule = target.name;
        else if (el.fd !== undefined)
            probe.fd =
                target?.name ??
                (target ? fdId(refName(target.relation), target.lhs.map(refName), target.rhs.map(refName)) : el.fd.$refText);
        if (el.path.length > 0) probe.path = el.path.map(attributePath);
        if (el.relation !== undefined) probe.relation = refName(el.relation);
        if (el.pair !== undefined) probe.pair = refName(el.pair);
        for (const m of el.members) {
            const mloc = locationOf(m);
            if (isPhrasing(m)) {
                const gold = isGoldLiteral(m.gold)
                    ? { kind: m.gold.value as 'yes' | 'no' }
                    : isGoldWhen(m.gold)
                      ? { kind: 'when' as const, condition: m.gold.condition ?? '' }
                      : { kind: m.name === 'negated' ? ('no' as const) : ('yes' as const) };
                probe.phrasings.push({ name: m.name ?? '', gold, text: m.text ?? '', loc: mloc });
            } else if (isStem(m)) probe.stems.push({ text: m.text ?? '', loc: mloc });
            else if (isOption(m)) probe.options.push({ attribute: refName(m.attribute), text: m.text ?? '', loc: mloc });
            else if (isAsk(m))
                probe.asks.push({ text: m.text ?? '', ...(m.condition !== undefined ? { when: m.condition } : {}), loc: mloc });
        }
        return probe;
    } else if (isModel(el)) {
        const m: ModelDecl = { name: el.name ?? '', provider: el.provider ?? '', settings: settingsOf(el.settings), loc };
        return m;
    } else if (isSuite(el)) {
        const suite: SuiteDecl = {
            name: el.name ?? '',
            probes: [],
            models: [],
            sample: { mode: 'all' },
            quotas: {},
            variants: [],
            settings: settingsOf(el.members.filter(isSetting)),
            loc,
        };
        for (const m of el.members) {
            if (isSuiteProbes(m)) suite.probes.push(...m.probes.map(refName));
            else if (isSuiteModels(m)) suite.models.push(...m.models.map(refName));
            else if (isSample(m)) {
                suite.sample = { mode: (m.mode ?? 'all') as 'first' | 'random' | 'all' };
                if (m.count !== undefined) suite.sample.count = m.count;
                if (m.seed !== undefined) suite.sample.seed = m.seed;
            } else if (isQuota(m)) suite.quotas[refName(m.probe)] = m.count ?? 0;
            else if (isVariant(m)) {
                const v: SuiteDecl['variants'][number] = {
                    kind: m.kind ?? '',
                    args: m.args.map(settingValue),
                    loc: locationOf(m),
                };
                if (m.passage !== undefined) v.passage = attributePath(m.passage);
                suite.variants.push(v);
            }
        }
        return suite;
    }
    return ruleDecl(el as Parameters<typeof ruleDecl>[0], loc);
}
