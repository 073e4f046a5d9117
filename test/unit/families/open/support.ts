/** The movie fixture of the probes tests as a data graph, shared by the open family's tests. */
import * as path from 'node:path';
import { loadSpec } from '../../../../src/core/spec/load.js';
import { loadData } from '../../../../src/core/data/index.js';
import { buildDataGraph, findNode, type DataGraph } from '../../../../src/core/kg/data-graph.js';
import type { SpecModel } from '../../../../src/core/spec/model.js';

export async function movieGraph(): Promise<{
    spec: SpecModel;
    graph: DataGraph;
    node: (type: string, label: string) => number;
}> {
    const { model } = await loadSpec(path.resolve('test/fixtures/probes/movie.probe'));
    const data = await loadData(model);
    const graph = buildDataGraph(model, data);
    return {
        spec: model,
        graph,
        node: (type, label) => {
            const v = findNode(graph, type, label);
            if (v < 0) throw new Error(`no node ${type} ${label}`);
            return v;
        },
    };
}
