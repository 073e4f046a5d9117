/**
 * Re-parsing only what an edit touched. Langium parses a whole document on every change (it has no incremental
 * parser); on a 2,000-line spec that is most of an edit's cost, on an 11,000-line one over a second. A spec is a
 * flat list of top-level declarations (`relation …`, `fd …`, `probe … { … }`), each starting with its keyword, so
 * an edit inside one of them can be parsed as a document of its own — the declarations around the edit — and
 * spliced into the previous tree: the untouched declarations keep their syntax nodes (moved to their new
 * offsets and lines), the touched ones are replaced by the new parse.
 *
 * It is used only when it cannot differ from a full parse: the previous text parsed without an error, the
 * re-parsed stretch parses without one, it starts and ends at declarations that start a line (so no token, not
 * even a `//` comment, runs across a seam), and it includes the declaration before the edit (an edit right after a
 * declaration may continue it: ` cap 5` after a rule). A declaration can only continue with its own keywords,
 * never with the keyword that starts the next one, so the seam after the stretch holds. Anything else — errors,
 * a seam inside a comment or a string — is parsed whole. `test/unit/language/incremental.test.ts` compares the
 * two on random edits.
 */
import type { AstNode, CompositeCstNode, CstNode, LeafCstNode, ParseResult } from 'langium';

/** Parses a text as a whole spec (the document's own parser). */
export type ParseWhole = (text: string) => ParseResult<AstNode>;

/** Writable positions of a leaf (Langium's LeafCstNodeImpl) and of composite nodes (their cached range). */
interface LeafFields {
    _offset: number;
    _startLine: number;
    _startColumn: number;
    _endLine: number;
    _endColumn: number;
}
interface CompositeFields {
    _rangeCache: unknown;
    content: CstNode[];
}
interface RootFields extends CompositeFields {
    _text: string;
}

/**
 * The new parse of `text` made from `previous` (the parse of the document's last text) by re-parsing only the
 * declarations an edit touched, or undefined when that is not certain to equal a full parse. `previous` is
 * changed in place and returned as the new result.
 */
export function spliceParse(previous: ParseResult<AstNode>, text: string, parse: ParseWhole): ParseResult<AstNode> | undefined {
    const root = previous.value;
    const cst = root.$cstNode as (CompositeCstNode & RootFields) | undefined;
    if (
        !cst ||
        previous.lexerErrors.length > 0 ||
        previous.parserErrors.length > 0 ||
        (previous.lexerReport?.diagnostics.length ?? 0) > 0
    )
        return undefined;
    const old = cst._text;
    if (old === text) return undefined;
    // The edit: a common prefix and suffix around it.
    const p = commonPrefix(old, text);
    const changeEnd = old.length - commonSuffix(old, text, Math.min(old.length, text.length) - p);
    // The root's children (declarations, and comments between them) in order. The stretch: from the last
    // declaration starting before the edit (it may continue), or the text's start, to the first declaration
    // starting after the edit, or the text's end.
    const children = cst.content;
    let from = firstAtOrAfter(children, p) - 1;
    while (from >= 0 && children[from]!.hidden) from--;
    let to = firstAtOrAfter(children, changeEnd);
    if (to <= from) to = from + 1;
    while (to < children.length && children[to]!.hidden) to++;
    if (from < 0) from = 0;
    const start = from === 0 && (children[0]?.hidden || (children[0]?.offset ?? 0) >= p) ? 0 : children[from]!.offset;
    const oldEnd = to < children.length ? children[to]!.offset : old.length;
    if (oldEnd < changeEnd || start > p) return undefined;
    const delta = text.length - old.length;
    const newEnd = oldEnd + delta;
    if (!seam(old, start) || !seam(text, start) || (to < children.length && !seam(text, newEnd))) return undefined;
    const part = parse(text.slice(start, newEnd));
    if (part.lexerErrors.length > 0 || part.parserErrors.length > 0 || (part.lexerReport?.diagnostics.length ?? 0) > 0)
        return undefined;
    const partCst = part.value.$cstNode as (CompositeCstNode & CompositeFields) | undefined;
    if (!partCst) return undefined;

    // Each list of the root (imports, elements): its nodes before the stretch, and from where they come after it.
    const lists = root as unknown as Record<string, unknown>;
    const cuts = new Map<string, [number, number]>();
    for (const [name, value] of Object.entries(lists)) {
        if (name.startsWith('$') || !Array.isArray(value)) continue;
        cuts.set(name, [
            firstAtOrAfter(
                (value as AstNode[]).map(n => n.$cstNode!),
                start,
            ),
            firstAtOrAfter(
                (value as AstNode[]).map(n => n.$cstNode!),
                oldEnd,
            ),
        ]);
    }
    // Where the stretch starts, and how the text after it moved.
    const at = position(old, start);
    const oldEndAt = position(old, oldEnd),
        newEndAt = position(text, newEnd);
    for (const child of partCst.content) shift(child, start, at.line, 0, at.character);
    for (const child of children.slice(to))
        shift(child, delta, newEndAt.line - oldEndAt.line, oldEndAt.line, newEndAt.character - oldEndAt.character);
    for (const child of partCst.content) (child as { container?: CstNode }).container = cst;
    cst.content = [...children.slice(0, from), ...partCst.content, ...children.slice(to)];
    cst._text = text;
    cst._rangeCache = undefined;

    // The tree: each list keeps its nodes before and after the stretch, around the new ones.
    const fresh = part.value as unknown as Record<string, unknown>;
    for (const [name, [i, j]] of cuts) {
        const value = lists[name] as AstNode[];
        const list = (lists[name] = [...value.slice(0, i), ...((fresh[name] as AstNode[] | undefined) ?? []), ...value.slice(j)]);
        for (let index = i; index < list.length; index++) {
            const n = list[index]!;
            const w = n as { $container?: AstNode; $containerProperty?: string; $containerIndex?: number };
            w.$container = root;
            w.$containerProperty = name;
            w.$containerIndex = index;
        }
    }
    return { value: root, lexerErrors: [], lexerReport: previous.lexerReport, parserErrors: [] };
}

/** Characters compared at once (a string comparison of two slices), before the last ones one by one. */
const BLOCK = 4096;

function commonPrefix(a: string, b: string): number {
    const most = Math.min(a.length, b.length);
    let p = 0;
    while (p + BLOCK <= most && a.slice(p, p + BLOCK) === b.slice(p, p + BLOCK)) p += BLOCK;
    while (p < most && a.charCodeAt(p) === b.charCodeAt(p)) p++;
    return p;
}

/** The length of the common end of `a` and `b`, at most `most`. */
function commonSuffix(a: string, b: string, most: number): number {
    let s = 0;
    while (s + BLOCK <= most && a.slice(a.length - s - BLOCK, a.length - s) === b.slice(b.length - s - BLOCK, b.length - s))
        s += BLOCK;
    while (s < most && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
    return s;
}

/** The index of the first node (in document order) whose offset is at least `offset`: a binary search. */
function firstAtOrAfter(nodes: readonly CstNode[], offset: number): number {
    let a = 0,
        b = nodes.length;
    while (a < b) {
        const m = (a + b) >> 1;
        if (nodes[m]!.offset < offset) a = m + 1;
        else b = m;
    }
    return a;
}

/**
 * A declaration boundary no token can run across: the text's start, or a line start. (White space alone is not
 * enough: a `//` comment ending the stretch would run on into the next declaration on its line.)
 */
function seam(text: string, at: number): boolean {
    if (at === 0) return true;
    const c = text.charCodeAt(at - 1);
    return c === 10 || c === 13;
}

/** 0-based line and character of an offset. */
function position(text: string, offset: number): { line: number; character: number } {
    let line = 0,
        lineStart = 0;
    for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
        line++;
        lineStart = i + 1;
    }
    return { line, character: offset - lineStart };
}

/**
 * Moves every leaf under `node` by `offset` characters and `lines` lines; leaves that were on line `onLine`
 * (where the text before them changed length) also move `character` columns. Composite nodes forget their range.
 */
function shift(node: CstNode, offset: number, lines: number, onLine: number, character: number): void {
    if (offset === 0 && lines === 0 && character === 0) return;
    const stack: CstNode[] = [node];
    while (stack.length > 0) {
        const n = stack.pop()!;
        if ('content' in n) {
            (n as unknown as CompositeFields)._rangeCache = undefined;
            for (const c of (n as CompositeCstNode).content) stack.push(c);
            continue;
        }
        const leaf = n as LeafCstNode & LeafFields;
        if (leaf._startLine === onLine) leaf._startColumn += character;
        if (leaf._endLine === onLine) leaf._endColumn += character;
        leaf._offset += offset;
        leaf._startLine += lines;
        leaf._endLine += lines;
    }
}
