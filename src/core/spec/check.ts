import { loadSpec, type LoadedSpec, type SpecDiagnostic } from './load.js';
import type { Range, SpecLocation } from './model.js';
import type { AstNode } from 'langium';
import { isKey, isRelation, isSpec } from '../language/generated/ast.js';
import { locationOf } from '../language/build-model.js';
import { loadData, type DataCache, type LoadOptions } from '../data/index.js';
import type { LoadedData } from '../data/types.js';

export type CheckedSpec = LoadedSpec & { data: LoadedData };

export interface CheckOptions {
    /** Keep one per editor session so unchanged data files are not read again. */
    cache?: DataCache;
    signal?: AbortSignal;
}

const inside = (inner: Range, outer: Range) =>
    (inner.start.line > outer.start.line ||
        (inner.start.line === outer.start.line && inner.start.character >= outer.start.character)) &&
    (inner.end.line < outer.end.line || (inner.end.line === outer.end.line && inner.end.character <= outer.end.character));

/**
 * What the data layer needs from the parsed documents: where each `key (…)` is written, and which relations
 * to leave alone because their declaration (or their source's) has an error, so data checks never report on
 * a half-understood declaration.
 */
export function dataOptionsFor(loaded: Pick<LoadedSpec, 'model' | 'documents'>, diagnostics: SpecDiagnostic[]): LoadOptions {
    const keyNodes = new Map<string, AstNode[]>();
    for (const doc of loaded.documents) {
        // Relations are declarations of the spec itself: no need to walk every node of a large spec.
        const root = doc.parseResult.value;
        for (const node of isSpec(root) ? root.elements : []) {
            if (isRelation(node) && node.name) keyNodes.set(node.name, node.keys.filter(isKey));
        }
    }
    const errors = diagnostics.filter(d => d.severity === 'error');
    const broken = (loc: SpecLocation) => errors.some(e => e.file === loc.file && inside(e.range, loc.range));
    const skip = new Set<string>();
    for (const relation of loaded.model.relations) {
        const source = loaded.model.sources.find(s => s.name === relation.source);
        if (!source || broken(relation.loc) || broken(source.loc)) skip.add(relation.name);
    }
    // A key's place is found only for a key the data breaks (the editor asks on every edit, for every relation).
    return {
        skip,
        keyLocation: (relation, index) => {
            const key = keyNodes.get(relation.name)?.[index];
            return key && locationOf(key);
        },
    };
}

/**
 * Everything `halluprobe check` and the editor report for a spec: language diagnostics, then the data
 * checks (missing files and columns, coercion, keys, FDs, FKs) for every relation declared without errors.
 */
export async function checkSpec(entry: string, options: CheckOptions = {}): Promise<CheckedSpec> {
    const loaded = await loadSpec(entry);
    const data = await loadData(loaded.model, options.cache, options.signal, dataOptionsFor(loaded, loaded.diagnostics));
    return { ...loaded, diagnostics: [...loaded.diagnostics, ...data.diagnostics], data };
}
