/** The knowledge graph over a spec and its data: FD closure, FK paths and joins, graph views. */
export { fdClosure, fdClosureSteps, attributeClosure, type ClosureStep } from './closure.js';
export { resolvePath, FkJoin, DANGLING, AMBIGUOUS, type PathHop, type ResolvedPath, type PathResolution } from './graph.js';
export {
    schemaGraph,
    schemaView,
    neighbourhoodView,
    entityNeighbourhood,
    nodeNeighbourhood,
    findEntityRow,
    type NodeRef,
} from './view.js';
export { DataGraph, DataGraphBuilder, buildDataGraph, findNode, type EdgeRelation } from './data-graph.js';
export { kHop, restrict, type LocalGraph, type KHopOptions } from './khop.js';
export { questionGraph, questionView } from './question-graph.js';
export {
    collapse,
    focusOf,
    questionElements,
    schemaElements,
    neighbourhoodElements,
    NEIGHBOURS_SHOWN,
    NODES_SHOWN,
} from './drawing.js';
