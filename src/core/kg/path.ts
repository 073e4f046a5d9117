/**
 * The knowledge graph's node and edge shapes: a question's path, a schema view and a node's neighbourhood all use
 * them (the graph panel draws them as they are).
 */

export interface KgNode {
    id: string;
    kind: 'entity' | 'value';
    relation?: string;
    attribute?: string;
    label: string;
    /** 0 for the start entity, i for the node reached by hop i. */
    hop: number;
    /** Shown in the question (true) or hidden and to be recalled by the model (false). */
    given: boolean;
}

export interface KgEdge {
    from: string;
    to: string;
    label: string;
    hop: number;
}

export interface KgPath {
    nodes: KgNode[];
    edges: KgEdge[];
}
