import { AstUtils, CstUtils, type AstNode, type LangiumDocument } from 'langium';
import { AstNodeHoverProvider } from 'langium/lsp';
import type { Hover, HoverParams } from 'vscode-languageserver';
import {
    isAsk,
    isAttribute,
    isFd,
    isFk,
    isGoldWhen,
    isModel,
    isOption,
    isPhrasing,
    isProbe,
    isRelation,
    isRule,
    isSetting,
    isSource,
    isStem,
    type Attribute,
    type Rule,
    type Fd,
    type Fk,
    type Model,
    type Probe,
    type Relation,
    type Source,
} from '../../core/language/index.js';
import { modelSettingsOf, settingHover } from '../../core/language/index.js';
import type { ProbeServices } from '../services.js';
import { stringOffsets, templateScope } from '../../core/language/index.js';
import { parseExpression, parseTemplate, TEMPLATE_FUNCTIONS, type Expr } from '../../core/spec/index.js';
import { fdId } from '../../core/spec/index.js';
import { fdClosureSteps } from '../../core/kg/index.js';
import { columnStats, fdFacts, safeUrl, showValue } from '../../core/data/index.js';
import type { SpecData, SpecDataService } from '../data.js';
import { previewRule, previewSummary, type RulePreview } from '../../core/rules/index.js';

/** A source's path as shown: a database URL without any password in it. */
const shownPath = (s: { format?: string; path: string }) => (s.format === 'postgres' ? safeUrl(s.path) : s.path);

const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;
const count = (n: number) => n.toLocaleString('en-US');

/**
 * Hovers over names and declarations: what the thing is in the spec and, when its data is loaded, what the
 * data says (row counts, distinct and null counts, sample values, whether an FD holds, its closure).
 */
export class ProbeHoverProvider extends AstNodeHoverProvider {
    constructor(
        private readonly probeServices: ProbeServices,
        private readonly data: SpecDataService,
    ) {
        super(probeServices);
    }

    override async getHoverContent(document: LangiumDocument, params: HoverParams): Promise<Hover | undefined> {
        const hover = await super.getHoverContent(document, params);
        const root = document.parseResult.value.$cstNode;
        const leaf = root && CstUtils.findLeafNodeAtOffset(root, document.textDocument.offsetAt(params.position));
        // On an fd's attribute the fd comes first (rows, whether it holds, what it reaches through fks), as the
        // README promises for an fd hover; the attribute's own hover follows.
        const fd = leaf && AstUtils.getContainerOfType(leaf.astNode, isFd);
        if (hover && fd) {
            const fdText = await this.getAstNodeHoverContent(fd);
            const own = typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
            if (fdText && own !== fdText)
                return { contents: { kind: 'markdown', value: own ? `${fdText}\n\n---\n\n${own}` : fdText } };
        }
        if (hover) return hover;
        // Anywhere else on an fd or fk line (e.g. the `fd` keyword of an unnamed fd) describes that constraint.
        const inTemplate = leaf && (await this.placeholderHover(leaf.astNode, document.textDocument.offsetAt(params.position)));
        if (inTemplate) return { contents: { kind: 'markdown', value: inTemplate } };
        // A setting's name: its declaration (what it does, what it takes, its default).
        const setting =
            leaf && isSetting(leaf.astNode) && leaf.text === leaf.astNode.name ? settingHover(leaf.astNode) : undefined;
        if (setting) return { contents: { kind: 'markdown', value: setting } };
        const node = leaf && AstUtils.getContainerOfType(leaf.astNode, n => isFd(n) || isFk(n) || isRule(n));
        const text = node && (await this.getAstNodeHoverContent(node));
        return text ? { contents: { kind: 'markdown', value: text } } : undefined;
    }

    /** Inside a question template or condition: the attribute or function under the cursor. */
    private async placeholderHover(node: AstNode, offset: number): Promise<string | undefined> {
        const property = isGoldWhen(node)
            ? 'condition'
            : isPhrasing(node) || isStem(node) || isOption(node) || isAsk(node)
              ? 'text'
              : undefined;
        const probe = AstUtils.getContainerOfType(node, isProbe);
        const at = property && stringOffsets(node, property);
        if (!property || !probe || !at) return undefined;
        const text = (node as unknown as Record<string, string>)[property]!;
        const exprs =
            property === 'condition'
                ? [parseExpression(text, 0)].flatMap(r => ('expr' in r ? [r.expr] : []))
                : parseTemplate(text).parts.flatMap(p => (p.kind === 'placeholder' ? [p.expr] : []));
        // A call is hovered on its function name; its arguments are hovered on their own.
        const span = (e: Expr) => (e.kind === 'call' ? e.fn.length : e.kind === 'name' ? e.length : 0);
        const hit = exprs
            .flatMap(allNodes)
            .find(
                e =>
                    (e.kind === 'call' || e.kind === 'name') && at(e.offset) <= offset && offset < at(e.offset + span(e) - 1) + 1,
            );
        if (!hit) return undefined;
        if (hit.kind === 'call') {
            const fn = TEMPLATE_FUNCTIONS[hit.fn];
            return fn ? `**function** ${code(hit.fn)} — ${fn.doc}` : undefined;
        }
        if (hit.kind !== 'name') return undefined;
        const scope = templateScope(probe, this.probeServices);
        const relations = hit.qualifier ? scope.qualified.filter(r => r.name === hit.qualifier) : scope.unqualified;
        const attribute = relations.flatMap(r => r.attributes).find(a => a.name === hit.name);
        return attribute ? this.getAstNodeHoverContent(attribute) : undefined;
    }

    protected override async getAstNodeHoverContent(node: AstNode): Promise<string | undefined> {
        const loaded = await this.data.forDocument(AstUtils.getDocument(node));
        return describe(node, loaded);
    }
}

function allNodes(e: Expr): Expr[] {
    if (e.kind === 'call') return [e, ...e.args.flatMap(allNodes)];
    if (e.kind === 'unary') return [e, ...allNodes(e.arg)];
    if (e.kind === 'binary') return [e, ...allNodes(e.left), ...allNodes(e.right)];
    return [e];
}

/** Markdown describing a declaration, with data facts when `loaded` is given. Pure. */
function describe(node: AstNode, loaded: SpecData | undefined): string | undefined {
    if (isAttribute(node)) return describeAttribute(node, loaded);
    if (isRelation(node)) return describeRelation(node, loaded);
    if (isFd(node)) return describeFd(node, loaded);
    if (isFk(node)) return describeFk(node);
    if (isSource(node)) return describeSource(node, loaded);
    if (isProbe(node)) return describeProbe(node);
    if (isModel(node)) return describeModel(node);
    if (isRule(node)) return describeRule(node, loaded);
    return undefined;
}

/** Per loaded data (replaced, never changed, on reload): each rule's preview, evaluated once. */
const previews = new WeakMap<object, Map<string, RulePreview>>();

function describeRule(rule: Rule, loaded: SpecData | undefined): string {
    const lines = [
        `**rule** ${code(`${rule.name}(${rule.params.map(p => `${p.name}: ${p.type?.$refText ?? '?'}`).join(', ')})`)}`,
    ];
    if (!loaded) return lines.join('\n\n');
    let byRule = previews.get(loaded.data);
    if (!byRule) previews.set(loaded.data, (byRule = new Map()));
    let preview = byRule.get(rule.name);
    if (!preview) {
        try {
            preview = previewRule(loaded.spec, loaded.data, rule.name);
        } catch (e) {
            preview = { rule: rule.name, count: 0, truncated: false, samples: [], problem: (e as Error).message };
        }
        byRule.set(rule.name, preview);
    }
    if (preview.problem) {
        lines.push(`Cannot derive facts yet: ${preview.problem}`);
        return lines.join('\n\n');
    }
    lines.push(previewSummary(preview));
    for (const s of preview.samples) lines.push('```text\n' + s.proof.join('\n').replace(/```/g, "'''") + '\n```');
    return lines.join('\n\n');
}

function describeAttribute(a: Attribute, loaded: SpecData | undefined): string {
    const relation = a.$container as Relation;
    const type = a.type ? (a.type.list ? `list<${a.type.element}>` : a.type.element) : 'text';
    const lines = [`**attribute** ${code(`${relation.name}.${a.name}`)}: ${code(type)} — column ${code(a.column ?? a.name)}`];
    const extra = [a.label && `label "${a.label}"`, a.unit && `unit "${a.unit}"`].filter(Boolean);
    if (extra.length) lines.push(extra.join(' · '));
    const table = loaded?.data.tables.get(relation.name);
    if (table && table.column(a.name)) {
        const s = columnStats(table, a.name);
        lines.push(
            `${count(s.rows)} rows · ${count(s.distinct)} distinct · ${count(s.nulls)} null` +
                (s.min !== undefined && s.max !== undefined ? ` · ${s.min} to ${s.max}` : ''),
        );
        if (s.samples.length) lines.push(`samples: ${s.samples.map(v => code(showValue(v))).join(', ')}`);
    }
    return lines.join('\n\n');
}

function describeRelation(r: Relation, loaded: SpecData | undefined): string {
    const source = r.source?.ref;
    const lines = [
        `**relation** ${code(r.name)}${r.label ? ` ("${r.label}")` : ''} from ${source ? `${source.format} ${code(shownPath(source))}` : code(r.source.$refText)}${r.distinct ? ', distinct rows' : ''}`,
    ];
    lines.push(
        `${r.attributes.length} attribute(s)${r.keys.length ? ` · key ${r.keys.map(k => `(${k.attributes.map(x => x.$refText).join(', ')})`).join(', ')}` : ' · no key'}`,
    );
    const table = loaded?.data.tables.get(r.name);
    if (table) lines.push(`${count(table.rowCount)} rows loaded from ${code(table.file)}`);
    return lines.join('\n\n');
}

function fdText(fd: Fd): string {
    return `${fd.relation?.$refText}: ${fd.lhs.map(x => x.$refText).join(', ')} -> ${fd.rhs.map(x => x.$refText).join(', ')}`;
}

function describeFd(fd: Fd, loaded: SpecData | undefined): string {
    const lines = [`**fd** ${fd.name ? `${code(fd.name)} ` : ''}${code(fdText(fd))}`];
    const table = loaded?.data.tables.get(fd.relation?.$refText);
    const lhs = fd.lhs.map(x => x.$refText);
    const rhs = fd.rhs.map(x => x.$refText);
    const facts = table && fdFacts(table, lhs, rhs);
    if (facts) {
        lines.push(
            `${count(facts.rows)} rows · ${count(facts.groups)} distinct left-hand sides · ` +
                (facts.violated === 0 ? 'holds on the data ✓' : `**violated** by ${count(facts.violated)} group(s)`),
        );
    }
    if (loaded) {
        const id =
            fd.name ??
            fdId(
                fd.relation?.$refText,
                fd.lhs.map(x => x.$refText),
                fd.rhs.map(x => x.$refText),
            );
        const steps = fdClosureSteps(loaded.spec, id);
        const beyond = steps.filter(
            s => s.attribute.relation !== fd.relation?.$refText || !fd.rhs.some(x => x.$refText === s.attribute.attribute),
        );
        if (beyond.length)
            lines.push(
                `also determines (closure through keys and fks): ${beyond.map(s => `${code(`${s.attribute.relation}.${s.attribute.attribute}`)} via ${s.via.kind} ${s.via.id}`).join(', ')}`,
            );
    }
    return lines.join('\n\n');
}

function describeFk(fk: Fk): string {
    const side = (t: Fk['from']) => (t ? `${t.relation?.$refText}(${t.attributes.map(x => x.$refText).join(', ')})` : '?');
    return `**fk** ${fk.name ? `${code(fk.name)} ` : ''}${code(`${side(fk.from)} -> ${side(fk.to)}`)} — every value on the left must appear on the right; questions may hop along it`;
}

function describeSource(s: Source, loaded: SpecData | undefined): string {
    const lines = [
        `**source** ${code(s.name)}: ${s.format} ${code(shownPath(s))}${s.table ? ` table ${code(s.table)}` : ''}${s.query ? ` query ${code(s.query)}` : ''}`,
    ];
    const decl = loaded?.spec.sources.find(x => x.name === s.name);
    if (decl) lines.push(`file: ${code(decl.path)}`);
    const tables = loaded
        ? loaded.spec.relations
              .filter(r => r.source === s.name)
              .map(r => loaded.data.tables.get(r.name))
              .filter(t => t !== undefined)
        : [];
    if (tables.length) lines.push(tables.map(t => `${t.relation}: ${count(t.rowCount)} rows`).join(' · '));
    return lines.join('\n\n');
}

function describeProbe(p: Probe): string {
    const target = p.fd
        ? `using fd ${code(p.fd.$refText)}`
        : p.path.length
          ? `along ${code(p.path.map(s => `${s.relation?.$refText}.${s.attribute?.$refText}`).join(' -> '))}`
          : p.relation
            ? `about ${code(p.relation?.$refText)}`
            : '';
    return `**probe** ${code(p.name)}: ${p.kind} ${target} · ${p.members.length} member(s)`;
}

function describeModel(m: Model): string {
    const s = modelSettingsOf(m);
    const shown: [string, string | number | undefined][] = [
        ['id', s.id],
        ['endpoint', s.endpoint],
        ['key_env', s.key_env],
        ['temperature', s.temperature],
    ];
    const parts = shown.filter(([, v]) => v !== undefined).map(([k, v]) => `${k} ${code(String(v))}`);
    return `**model** ${code(m.name)}: provider ${code(m.provider)}${parts.length ? ` · ${parts.join(' · ')}` : ''}`;
}
