/**
 * Texts the parser must survive: a spec of 150,000 comment lines, deep nesting, a huge literal. Langium's tree
 * builder is made spread-free (its `splice(i, 0, ...nodes)` overflowed the stack on long comment runs), and what
 * still cannot be parsed becomes a located diagnostic naming the file's real shape, never a thrown build.
 */
import type { CompositeCstNode, CstNode, CstNodeBuilder } from 'langium';

/**
 * Langium adds the hidden tokens (comments) before a token with `splice(i, 0, ...nodes)` and `push(...nodes)`:
 * 150,000 comment lines in a row are 150,000 call arguments, and the call overflows the stack. The same two
 * steps, one node at a time, on this parser's own builder.
 */
export function withoutSpreads<P extends object>(parser: P): P {
    const builder = (parser as unknown as { nodeBuilder?: CstNodeBuilder }).nodeBuilder;
    if (!builder) return parser;
    const adopt = (parent: CompositeCstNode, children: CstNode[]) => {
        for (const child of children) (child as { container?: CompositeCstNode }).container = parent;
    };
    builder.appendChildren = (parent, children) => {
        adopt(parent, children);
        const content = parent.content as CstNode[];
        if (content.length === 0) (parent as unknown as { content: CstNode[] }).content = children.slice();
        else for (const child of children) content.push(child);
    };
    builder.insertChildren = (parent, index, children) => {
        adopt(parent, children);
        const content = parent.content as CstNode[];
        const tail = content.splice(index);
        for (const child of children) content.push(child);
        for (const child of tail) content.push(child);
    };
    return parser;
}

/** Why a text could not be parsed, in the terms of the file (its longest comment run, nesting, line), with a remedy. */
export function unparseableMessage(text: string, error: unknown): string {
    const why =
        error instanceof RangeError
            ? 'the parser ran out of stack space'
            : `the parser failed (${error instanceof Error ? error.message : String(error)})`;
    let comments = 0,
        run = 0,
        depth = 0,
        deepest = 0,
        longest = 0,
        lineStart = 0;
    for (let i = 0; i <= text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 123 || c === 40 || c === 91) deepest = Math.max(deepest, ++depth);
        else if (c === 125 || c === 41 || c === 93) depth = Math.max(0, depth - 1);
        else if (c === 10 || i === text.length) {
            longest = Math.max(longest, i - lineStart);
            run = /^\s*\/\//.test(text.slice(lineStart, Math.min(i, lineStart + 64))) ? run + 1 : 0;
            comments = Math.max(comments, run);
            lineStart = i + 1;
        }
    }
    const shapes = [
        comments >= 10_000 && `${comments.toLocaleString('en-US')} comment lines in a row (remove or shorten them)`,
        deepest >= 500 && `brackets nested ${deepest.toLocaleString('en-US')} deep (flatten them)`,
        longest >= 1_000_000 && `a line of ${longest.toLocaleString('en-US')} characters (split it)`,
    ].filter(Boolean);
    return `This file cannot be parsed: ${why}${shapes.length ? ` on ${shapes.join('; ')}` : '; shorten its longest comment, string or nesting'}.`;
}
