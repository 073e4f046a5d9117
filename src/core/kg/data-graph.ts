/**
 * The data's knowledge graph as compact arrays, for retrieval over large data (issue 17): entities are keyed
 * rows, edges are FK links (entity → entity) and attribute values (entity → value node, one value node per
 * attribute and distinct value, so two movies of 2009 meet at `Movie.year=2009`). Adjacency is undirected
 * CSR over typed arrays: a graph of a million edges costs tens of MB, where an object per edge (graphology)
 * costs several hundred. Node ids and labels match the graph panel's (`Movie(Avatar, 2009)`, `Movie.year=2009`)
 * and are computed on demand.
 */
import type { SpecModel } from '../spec/model.js';
import type { CellValue, LoadedData, RelationTable } from '../data/types.js';
import { format, type TemplateValue } from '../spec/template.js';
import { keyAttributes } from '../probes/scope.js';
import { FkJoin } from './graph.js';

/** One kind of edge: an attribute of a relation, or an FK. */
export interface EdgeRelation {
    /** `Movie.year` for an attribute, the FK's id for an FK. */
    name: string;
    /** Words shown in a triplet: the attribute's label or name, the FK's name or source attributes. */
    label: string;
    kind: 'attribute' | 'fk';
    /** The relation of the head entity. */
    headType: string;
    /** The tail's type: the FK's target relation, or `Relation.attribute` for a value. */
    tailType: string;
    /** Words a sentence may use for it: the attribute's name, label and unit; the FK's name, attributes and target. */
    words: string[];
    /** A list attribute: a row holds several values of it (or some of them), never one functional value. */
    many?: true;
}

const show = (v: CellValue) => format(v as TemplateValue);
const words = (name: string) => name.replace(/_/g, ' ');

/** Growable typed arrays behind the builder. */
class IntList {
    data = new Int32Array(1024);
    length = 0;
    push(v: number): void {
        if (this.length === this.data.length) {
            const d = new Int32Array(this.data.length * 2);
            d.set(this.data);
            this.data = d;
        }
        this.data[this.length++] = v;
    }
    view(): Int32Array {
        return this.data.subarray(0, this.length);
    }
}

export class DataGraph {
    /** The node of row 0 of each relation with rows (entities are numbered relation by relation, in row order). */
    readonly entityStart = new Map<string, number>();
    /** Undirected CSR: the neighbours of node v are adjNode[offsets[v] .. offsets[v + 1]), through adjEdge[...]. */
    readonly offsets: Int32Array;
    readonly adjNode: Int32Array;
    readonly adjEdge: Int32Array;

    constructor(
        readonly relations: EdgeRelation[],
        /** Per node: the table (entity) or `Relation.attribute` (value) it belongs to, as an index into `types`. */
        readonly nodeType: Int32Array,
        /** Per node: the row (entity) or -1 (value). */
        readonly nodeRow: Int32Array,
        readonly types: { name: string; entity: boolean; table?: RelationTable; key?: string[] }[],
        /** Value nodes' text, by node. */
        readonly valueText: Map<number, string>,
        readonly edgeHead: Int32Array,
        readonly edgeTail: Int32Array,
        readonly edgeRel: Int32Array,
    ) {
        const n = nodeType.length;
        const m = edgeHead.length;
        const degree = new Int32Array(n + 1);
        for (let e = 0; e < m; e++) {
            degree[edgeHead[e]!]!++;
            degree[edgeTail[e]!]!++;
        }
        this.offsets = new Int32Array(n + 1);
        for (let v = 0; v < n; v++) this.offsets[v + 1] = this.offsets[v]! + degree[v]!;
        this.adjNode = new Int32Array(2 * m);
        this.adjEdge = new Int32Array(2 * m);
        const fill = this.offsets.slice(0, n);
        for (let e = 0; e < m; e++) {
            const h = edgeHead[e]!,
                t = edgeTail[e]!;
            this.adjNode[fill[h]!] = t;
            this.adjEdge[fill[h]!++] = e;
            this.adjNode[fill[t]!] = h;
            this.adjEdge[fill[t]!++] = e;
        }
    }

    get nodeCount(): number {
        return this.nodeType.length;
    }
    get edgeCount(): number {
        return this.edgeHead.length;
    }
    degree(v: number): number {
        return this.offsets[v + 1]! - this.offsets[v]!;
    }
    isEntity(v: number): boolean {
        return this.types[this.nodeType[v]!]!.entity;
    }
    typeOf(v: number): string {
        return this.types[this.nodeType[v]!]!.name;
    }

    /** Shown text: the entity's key values, or the value. */
    label(v: number): string {
        const t = this.types[this.nodeType[v]!]!;
        if (!t.entity) return this.valueText.get(v) ?? '';
        return t.key!.map(a => show(t.table!.value(this.nodeRow[v]!, a))).join(', ');
    }

    /** As a prompt writes it: "Avatar (2009)" for an entity keyed by title and year, else the label. */
    display(v: number): string {
        const t = this.types[this.nodeType[v]!]!;
        if (!t.entity || t.key!.length < 2) return this.label(v);
        const [first, ...rest] = t.key!.map(a => show(t.table!.value(this.nodeRow[v]!, a)));
        return `${first} (${rest.join(', ')})`;
    }

    /** Stable id, as in the graph panel: `Movie(Avatar, 2009)` or `Movie.year=2009`. */
    id(v: number): string {
        const t = this.types[this.nodeType[v]!]!;
        return t.entity ? `${t.name}(${this.label(v)})` : `${t.name}=${this.label(v)}`;
    }
}

/** Builds a DataGraph node by node and edge by edge (the data builder below; benchmarks use it directly). */
export class DataGraphBuilder {
    private readonly types: DataGraph['types'] = [];
    private readonly typeIndex = new Map<string, number>();
    private readonly relations: EdgeRelation[] = [];
    private readonly relationIndex = new Map<string, number>();
    private readonly nodeType = new IntList();
    private readonly nodeRow = new IntList();
    private readonly valueText = new Map<number, string>();
    private readonly valueNodes = new Map<string, number>();
    private readonly head = new IntList();
    private readonly tail = new IntList();
    private readonly rel = new IntList();

    entityType(name: string, table?: RelationTable, key?: string[]): number {
        return this.type(name, true, table, key);
    }

    private type(name: string, entity: boolean, table?: RelationTable, key?: string[]): number {
        let t = this.typeIndex.get(name);
        if (t === undefined) {
            t = this.types.length;
            this.types.push({ name, entity, table, key });
            this.typeIndex.set(name, t);
        }
        return t;
    }

    relation(r: EdgeRelation): number {
        let i = this.relationIndex.get(r.name);
        if (i === undefined) {
            i = this.relations.length;
            this.relations.push(r);
            this.relationIndex.set(r.name, i);
        }
        return i;
    }

    entity(type: number, row: number): number {
        this.nodeType.push(type);
        this.nodeRow.push(row);
        return this.nodeType.length - 1;
    }

    /** The value node of `Relation.attribute` holding this text (one per distinct value). */
    value(typeName: string, text: string): number {
        const k = `${typeName}\u0000${text}`;
        let v = this.valueNodes.get(k);
        if (v === undefined) {
            v = this.entity(this.type(typeName, false), -1);
            this.valueText.set(v, text);
            this.valueNodes.set(k, v);
        }
        return v;
    }

    edge(head: number, relation: number, tail: number): void {
        this.head.push(head);
        this.tail.push(tail);
        this.rel.push(relation);
    }

    build(): DataGraph {
        return new DataGraph(
            this.relations,
            this.nodeType.view().slice(),
            this.nodeRow.view().slice(),
            this.types,
            this.valueText,
            this.head.view().slice(),
            this.tail.view().slice(),
            this.rel.view().slice(),
        );
    }
}

/**
 * The graph of a spec's data. Key attributes name the entity (no edge); a single-attribute FK's source
 * attribute becomes the FK edge instead of a value edge; list cells give one edge per element; nulls none.
 */
export function buildDataGraph(spec: SpecModel, data: LoadedData): DataGraph {
    const b = new DataGraphBuilder();
    const entityNode = new Map<string, number>();
    for (const r of spec.relations) {
        const table = data.tables.get(r.name);
        if (!table) continue;
        const t = b.entityType(r.name, table, keyAttributes(r));
        const first = b.entity(t, 0);
        for (let row = 1; row < table.rowCount; row++) b.entity(t, row);
        if (table.rowCount > 0) entityNode.set(r.name, first);
    }
    const done = (g: DataGraph) => {
        for (const [k, v] of entityNode) g.entityStart.set(k, v);
        return g;
    };
    for (const r of spec.relations) {
        const table = data.tables.get(r.name);
        const first = entityNode.get(r.name);
        if (!table || first === undefined) continue;
        const key = new Set(keyAttributes(r));
        const fkAttrs = new Set(
            spec.fks.filter(f => f.from.relation === r.name && f.from.attributes.length === 1).map(f => f.from.attributes[0]!),
        );
        for (const a of r.attributes) {
            if (key.has(a.name) || fkAttrs.has(a.name)) continue;
            const col = table.column(a.name);
            if (!col) continue;
            const typeName = `${r.name}.${a.name}`;
            const rel = b.relation({
                name: typeName,
                label: a.label ?? words(a.name),
                kind: 'attribute',
                headType: r.name,
                tailType: typeName,
                words: [words(a.name), a.label ?? '', a.unit ?? ''].filter(Boolean),
                ...(a.type.list ? { many: true as const } : {}),
            });
            const nodeOfCode = new Int32Array(col.size).fill(-1);
            for (let row = 0; row < table.rowCount; row++) {
                const code = col.codes[row]!;
                if (code < 0) continue;
                const cell = col.values[code]!;
                if (Array.isArray(cell)) {
                    for (const el of cell) if (el !== null) b.edge(first + row, rel, b.value(typeName, show(el)));
                    continue;
                }
                if (nodeOfCode[code]! < 0) nodeOfCode[code] = b.value(typeName, show(cell));
                b.edge(first + row, rel, nodeOfCode[code]!);
            }
        }
    }
    for (const fk of spec.fks) {
        const from = data.tables.get(fk.from.relation),
            to = data.tables.get(fk.to.relation);
        const fromFirst = entityNode.get(fk.from.relation),
            toFirst = entityNode.get(fk.to.relation);
        if (!from || !to || fromFirst === undefined || toFirst === undefined) continue;
        const target = spec.relations.find(x => x.name === fk.to.relation);
        const rel = b.relation({
            name: fk.id,
            label: fk.name ? words(fk.name) : fk.from.attributes.map(words).join(', '),
            kind: 'fk',
            headType: fk.from.relation,
            tailType: fk.to.relation,
            words: [fk.name ? words(fk.name) : '', ...fk.from.attributes.map(words), target?.label ?? fk.to.relation].filter(
                Boolean,
            ),
        });
        const join = new FkJoin(from, fk.from.attributes, to, fk.to.attributes);
        for (let row = 0; row < from.rowCount; row++) {
            const target = join.target(row);
            if (target >= 0) b.edge(fromFirst + row, rel, toFirst + target);
        }
    }
    return done(b.build());
}

/** The first node of this relation whose label (key values, as shown) is this text; -1 when none. */
export function findNode(graph: DataGraph, typeName: string, label: string): number {
    for (let v = 0; v < graph.nodeCount; v++) if (graph.typeOf(v) === typeName && graph.label(v) === label) return v;
    return -1;
}
