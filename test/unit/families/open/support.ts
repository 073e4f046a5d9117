/** The movie fixture of the probes tests as a data graph, shared by the open family's tests. */
import * as path from 'node:path';
import { loadSpec } from '../../../../src/core/spec/load.js';
import { loadData } from '../../../../src/core/data/index.js';
import { buildDataGraph, findNode, type DataGraph } from '../../../../src/core/kg/data-graph.js';
import type { SpecModel } from '../../../../src/core/spec/model.js';
import { generateQuestions } from '../../../../src/core/probes/generate.js';
import { createVerifyContext, verify } from '../../../../src/core/verify/verify.js';
import type { Verdict } from '../../../../src/core/verify/types.js';
import '../../../../src/core/probes/registry.js';

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

/**
 * The open fixture's question about Avatar and its director (probe `pair`, clean context) and a reader of answers to it,
 * verified as a run verifies them.
 */
export async function avatarPair(): Promise<
    (answer: string) => { answer: string; correct: boolean; stance?: string; why?: string; claims?: Verdict['claims'] }
> {
    const { model: spec } = await loadSpec(path.resolve('test/fixtures/open/open.probe'));
    const data = await loadData(spec);
    const q = [...generateQuestions(spec, data, { probe: 'pair' }).questions].find(
        x => x.entity.key[0] === 'Avatar' && x.phrasing === 'clean',
    )!;
    const ctx = createVerifyContext(spec, data);
    return answer => {
        const v = verify(q, answer, ctx, 'm');
        return { answer: v.answer, correct: v.correct, stance: v.read?.stance, why: v.read?.why, claims: v.claims };
    };
}
