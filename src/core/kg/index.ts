/** The knowledge graph over a spec and its data: FD closure, FK paths and joins, graph views. */
export { fdClosure, fdClosureSteps, attributeClosure, type ClosureStep } from './closure.js';
export { resolvePath, fkPaths, FkJoin, DANGLING, AMBIGUOUS, type PathHop, type ResolvedPath, type PathResolution, type FkPathEnumeration } from './graph.js';
export { schemaGraph, entityNeighbourhood, nodeNeighbourhood, findEntityRow, type NodeRef } from './view.js';
