/** The knowledge graph over a spec and its data: FD closure, FK paths and joins, graph views. */
export { fdClosureSteps } from './closure.js';
export { schemaGraph, schemaView, neighbourhoodView, type NodeRef } from './view.js';
export { questionGraph, questionView } from './question-graph.js';
