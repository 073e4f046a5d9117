/**
 * Knowledge-graph views for the graph panel: the schema (relations, their keys and FDs, FKs between them)
 * and the neighbourhood of one entity in the data (its attribute values, the entities its FKs reference
 * and the entities that reference it). Same node / edge shapes as a question's path.
 */
import type { SpecModel } from '../spec/model.js';
import type { LoadedData, RelationTable } from '../data/types.js';
import type { KgEdge, KgNode, KgPath } from './path.js';
import { format, type TemplateValue } from '../spec/template.js';
import { keyAttributes } from '../probes/scope.js';
import { FkJoin } from './graph.js';
import type { DrawnGraph, GraphView, SchemaGraph } from '../../protocol/webview.js';
import { neighbourhoodDrawing, schemaDrawing } from './drawing.js';

/**
 * The schema as the graph panel draws it: relations with their attributes, keys, FDs and (when the data is
 * loaded) row counts; FKs between relations.
 */
export function schemaGraph(spec: SpecModel, file: string, data?: LoadedData): SchemaGraph {
    return {
        spec: file,
        relations: spec.relations.map(r => ({
            name: r.name,
            ...(r.label ? { label: r.label } : {}),
            attributes: r.attributes.map(a => a.name),
            keys: r.keys,
            fds: spec.fds.filter(f => f.relation === r.name).map(f => ({ id: f.id, lhs: f.lhs, rhs: f.rhs })),
            ...(data?.tables.get(r.name) ? { rows: data.tables.get(r.name)!.rowCount } : {}),
        })),
        fks: spec.fks.map(fk => ({
            id: fk.id,
            from: fk.from.relation,
            to: fk.to.relation,
            fromAttributes: fk.from.attributes,
            toAttributes: fk.to.attributes,
        })),
    };
}

/** The graph panel's schema view: the schema and how it is drawn. */
export function schemaView(spec: SpecModel, file: string, data?: LoadedData): Extract<GraphView, { view: 'schema' }> {
    const schema = schemaGraph(spec, file, data);
    return { view: 'schema', schema, drawn: schemaDrawing(schema) };
}

/** Entities listed around one node when it is expanded; the panel shows the first few and "+N more" for the rest. */
const NEIGHBOURHOOD_LIMIT = 200;

/** What expanding a node in the graph panel adds: its neighbourhood in the data, drawn collapsed around it. */
export function neighbourhoodView(spec: SpecModel, data: LoadedData, node: NodeRef): DrawnGraph {
    return neighbourhoodDrawing(node.nodeId, nodeNeighbourhood(spec, data, node, NEIGHBOURHOOD_LIMIT));
}

const show = (v: unknown) => format(v as TemplateValue);

function entityId(spec: SpecModel, table: RelationTable, row: number): { id: string; label: string } {
    const rel = spec.relations.find(r => r.name === table.relation)!;
    const key = keyAttributes(rel).map(a => show(table.value(row, a)));
    return { id: `${rel.name}(${key.join(', ')})`, label: key.join(', ') };
}

/** The row of a relation with these key values (formatted as in questions), or -1. */
function findEntityRow(spec: SpecModel, table: RelationTable, key: string[]): number {
    const rel = spec.relations.find(r => r.name === table.relation);
    if (!rel) return -1;
    const attrs = keyAttributes(rel);
    for (let row = 0; row < table.rowCount; row++) if (attrs.every((a, i) => show(table.value(row, a)) === key[i])) return row;
    return -1;
}

/**
 * One entity and what is one hop away from it in the data. At most `limit` referencing entities per FK
 * are listed (a popular director is referenced by many movies).
 */
export function entityNeighbourhood(
    spec: SpecModel,
    data: LoadedData,
    relation: string,
    key: string[],
    limit = 20,
): KgPath | undefined {
    const table = data.tables.get(relation);
    const row = table ? findEntityRow(spec, table, key) : -1;
    if (!table || row < 0) return undefined;
    const self = entityId(spec, table, row);
    const nodes: KgNode[] = [{ id: self.id, kind: 'entity', relation, label: self.label, hop: 0, given: true }];
    const edges: KgEdge[] = [];
    const keyAttrs = new Set(keyAttributes(spec.relations.find(r => r.name === relation)!));
    for (const col of table.columns) {
        // Key values are in the entity's own label; empty cells are no facts.
        if (keyAttrs.has(col.attribute)) continue;
        const label = show(table.value(row, col.attribute));
        if (label === '') continue;
        const id = `${relation}.${col.attribute}=${label}`;
        nodes.push({ id, kind: 'value', relation, attribute: col.attribute, label, hop: 1, given: true });
        edges.push({ from: self.id, to: id, label: col.attribute, hop: 1 });
    }
    const seen = new Set(nodes.map(n => n.id));
    const addEntity = (t: RelationTable, r: number, edge: (id: string) => KgEdge) => {
        const e = entityId(spec, t, r);
        if (!seen.has(e.id)) {
            seen.add(e.id);
            nodes.push({ id: e.id, kind: 'entity', relation: t.relation, label: e.label, hop: 1, given: true });
        }
        edges.push(edge(e.id));
    };
    for (const fk of spec.fks) {
        const to = data.tables.get(fk.to.relation);
        const from = data.tables.get(fk.from.relation);
        if (!to || !from) continue;
        if (fk.from.relation === relation) {
            const target = new FkJoin(table, fk.from.attributes, to, fk.to.attributes).target(row);
            if (target >= 0) addEntity(to, target, id => ({ from: self.id, to: id, label: fk.id, hop: 1 }));
        }
        if (fk.to.relation === relation) {
            const join = new FkJoin(from, fk.from.attributes, table, fk.to.attributes);
            let n = 0;
            for (let r = 0; r < from.rowCount && n < limit; r++) {
                if (join.target(r) !== row) continue;
                n++;
                addEntity(from, r, id => ({ from: id, to: self.id, label: fk.id, hop: 1 }));
            }
        }
    }
    return { nodes, edges };
}

/** A graph node as the panel knows it: its id (as in question paths), its relation and label. */
export interface NodeRef {
    nodeId: string;
    relation?: string;
    label: string;
}

/**
 * What is one hop from a node of a question's graph: for an entity, `entityNeighbourhood`; for a value
 * (`Relation.attribute=value`), the entities of that relation that have it (at most `limit`).
 */
export function nodeNeighbourhood(spec: SpecModel, data: LoadedData, node: NodeRef, limit = 12): KgPath {
    const empty: KgPath = { nodes: [], edges: [] };
    const table = node.relation ? data.tables.get(node.relation) : undefined;
    const rel = spec.relations.find(r => r.name === node.relation);
    if (!table || !rel) return empty;
    const value = node.nodeId.startsWith(`${rel.name}.`) ? /^[^.]+\.([^=]+)=/.exec(node.nodeId) : null;
    if (value) {
        const attribute = value[1]!;
        if (!table.column(attribute)) return empty;
        const out: KgPath = { nodes: [], edges: [] };
        for (let r = 0; r < table.rowCount && out.nodes.length < limit; r++) {
            if (show(table.value(r, attribute)) !== node.label) continue;
            const e = entityId(spec, table, r);
            out.nodes.push({ id: e.id, kind: 'entity', relation: rel.name, label: e.label, hop: 1, given: true });
            out.edges.push({ from: e.id, to: node.nodeId, label: attribute, hop: 1 });
        }
        return out;
    }
    for (let r = 0; r < table.rowCount; r++) {
        const e = entityId(spec, table, r);
        if (e.id !== node.nodeId) continue;
        return (
            entityNeighbourhood(
                spec,
                data,
                rel.name,
                keyAttributes(rel).map(a => show(table.value(r, a))),
                limit,
            ) ?? empty
        );
    }
    return empty;
}
