/**
 * Syntax errors in the spec's words, one per broken declaration. The parser's own messages ("Expecting: one of these
 * possible Token sequences: 1. [STRING] 2. [NUMBER] …") are worded by what the spec expects there ("the name of an
 * FD or rule after `using`"); a half-typed line is reported where it stops, not at the next line's keyword; and when
 * the parser's recovery swallowed the declarations after a broken one, the broken one is blanked and the text parsed
 * again, so the rest of the spec reads as written (no "Unknown probe" for a probe the parser ate).
 */
import { AbstractParserErrorMessageProvider, type LangiumParser, type ParseResult, type AstNode } from 'langium';
import type { IRecognitionException, IToken, TokenType } from 'chevrotain';

/** Keywords that start a declaration at the top level of a spec. */
const TOP_LEVEL = new Set(['import', 'source', 'relation', 'fd', 'fk', 'aliases', 'probe', 'model', 'suite', 'rule']);

/** What a name after a keyword names (`using movie_title`: an FD or rule). */
const NAMED_AFTER: Record<string, string> = {
    using: 'the name of an FD or rule',
    from: 'the name of a source',
    about: 'the name of a relation',
    with: 'the name of a relation',
    probes: 'the name of a probe',
    models: 'the name of a model',
    quota: 'the name of a probe',
    as: 'a name for it',
    probe: "the probe's name",
    relation: "the relation's name",
    source: "the source's name",
    model: "the model's name",
    suite: "the suite's name",
    rule: "the rule's name",
    inverse: "the inverse's name",
    not: 'a rule or fk name',
    fd: 'the relation of the FD',
    along: 'a path, Relation.attribute -> Relation.attribute',
    ',': 'a name',
    '->': 'a name',
    '.': 'an attribute name',
    ':': 'a type or a name',
};

/** A token type in words: a name, a quoted text, a number, or the keyword itself. */
function words(t: TokenType, previous?: IToken): string {
    if (t.name === 'ID') return (previous && NAMED_AFTER[previous.image]) ?? 'a name';
    if (t.name === 'STRING') return 'a quoted text ("…")';
    if (t.name === 'NUMBER') return 'a number';
    return `\`${t.name.replace(/:KW$/, '')}\``;
}

/** "a, b or c", without repeats; a long list ends with "…". */
function oneOf(items: string[]): string {
    const unique = [...new Set(items)];
    if (unique.length > 7) return `${unique.slice(0, 6).join(', ')}, …`;
    return unique.length <= 1 ? unique.join('') : `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
}

const isEnd = (t: IToken | undefined) => !t || t.tokenType?.name === 'EOF' || Number.isNaN(t.startOffset);
/** The place a message names: after the last token typed; what was found only when it is on the same line. */
function where(actual: IToken | undefined, previous: IToken | undefined): string {
    const after = previous && !isEnd(previous) ? ` after \`${previous.image}\`` : '';
    if (isEnd(actual)) return `${after}, at the end of the file`;
    if (previous && !isEnd(previous) && actual!.startLine! > (previous.endLine ?? previous.startLine!)) return after;
    return `${after}, not \`${actual!.image}\``;
}

/** The parser's messages in the spec's words (Langium calls it for every syntax error). */
export class ProbeParserErrorMessageProvider extends AbstractParserErrorMessageProvider {
    override buildMismatchTokenMessage({
        expected,
        actual,
        previous,
    }: {
        expected: TokenType;
        actual: IToken;
        previous: IToken;
    }): string {
        return `Expected ${words(expected, previous)}${where(actual, previous)}.`;
    }

    override buildNotAllInputParsedMessage({ firstRedundant }: { firstRedundant: IToken }): string {
        const keywords = [...TOP_LEVEL];
        return `\`${firstRedundant.image}\` does not start a declaration: a declaration starts with ${keywords.slice(0, -1).join(', ')} or ${keywords.at(-1)}.`;
    }

    override buildNoViableAltMessage({
        expectedPathsPerAlt,
        actual,
        previous,
    }: {
        expectedPathsPerAlt: TokenType[][][];
        actual: IToken[];
        previous: IToken;
    }): string {
        const first = expectedPathsPerAlt.flatMap(alt => alt.map(path => path[0]).filter((t): t is TokenType => !!t));
        return `Expected ${oneOf(first.map(t => words(t, previous)))}${where(actual[0], previous)}.`;
    }

    override buildEarlyExitMessage({
        expectedIterationPaths,
        actual,
        previous,
    }: {
        expectedIterationPaths: TokenType[][];
        actual: IToken[];
        previous: IToken;
    }): string {
        const first = expectedIterationPaths.map(path => path[0]).filter((t): t is TokenType => !!t);
        return `Expected ${oneOf(first.map(t => words(t, previous)))}${where(actual[0], previous)}.`;
    }
}

/** A declaration with a syntax error: its text range (offsets) and, when it got one, its keyword and name. */
interface BrokenDeclaration {
    start: number;
    end: number;
    keyword: string;
    name?: string;
    blanked: boolean;
}

/** The parse result with the declarations that had syntax errors (the document validator drops what follows from them). */
export type RecoveredParse<T extends AstNode = AstNode> = ParseResult<T> & { broken?: BrokenDeclaration[] };

interface Declaration {
    start: number;
    end: number;
    keyword: string;
    name?: string;
}

/** Declarations by their keyword at the start of a line (where a spec's declarations start, as written and formatted). */
function declarations(tokens: readonly IToken[], length: number): Declaration[] {
    const out: Declaration[] = [];
    tokens.forEach((t, i) => {
        if (t.startColumn !== 1 || !TOP_LEVEL.has(t.image)) return;
        const next = tokens[i + 1];
        out.push({
            start: t.startOffset,
            end: length,
            keyword: t.image,
            ...(next && next.tokenType.name !== 'STRING' && next.startLine === t.startLine ? { name: next.image } : {}),
        });
    });
    out.forEach((d, i) => {
        if (out[i + 1]) d.end = out[i + 1]!.start;
    });
    return out;
}

/** The same text with [start, end) replaced by spaces (line breaks kept), so every offset and position stays put. */
function blank(text: string, start: number, end: number): string {
    return text.slice(0, start) + text.slice(start, end).replace(/[^\r\n]/g, ' ') + text.slice(end);
}

const MAX_BLANKED = 50;

/**
 * Wraps the parser: after a parse with syntax errors, each broken declaration keeps its first error only, worded as
 * "Unfinished probe p2: …" (at the end of what was typed) or "In probe p2: …"; a broken declaration whose recovery
 * ran into the declarations after it is blanked and the text parsed again.
 */
export function recoveringParser<P extends LangiumParser>(parser: P): P {
    const parse = parser.parse.bind(parser);
    const lexer = (parser as unknown as { lexer: { tokenize(text: string): { tokens: IToken[] } } }).lexer;
    parser.parse = (<T extends AstNode = AstNode>(input: string, options?: { rule?: string }): RecoveredParse<T> => {
        const first = parse<T>(input, options);
        if (options?.rule || first.parserErrors.length === 0) return first;
        const decls = declarations(lexer.tokenize(input).tokens, input.length);
        const broken: BrokenDeclaration[] = [];
        const errors: IRecognitionException[] = [];
        let text = input;
        let result = first;
        for (let round = 0; round < MAX_BLANKED; round++) {
            // In document order; after a declaration that ran into the next ones, the rest of this parse is unreliable:
            // that declaration is blanked and the text parsed again.
            let swallowed = false;
            const top = result.value as unknown as { elements?: AstNode[]; imports?: AstNode[] };
            const elements = [...(top.elements ?? []), ...(top.imports ?? [])];
            for (const e of [...result.parserErrors].sort((a, b) => offsetOf(a) - offsetOf(b))) {
                const at = offsetOf(e);
                const decl = decls.find(d => d.start <= at && at < d.end) ?? { start: 0, end: input.length, keyword: '' };
                if (broken.some(b => b.start === decl.start)) continue;
                const ate =
                    decl.end < input.length &&
                    elements.some(n => n.$cstNode && n.$cstNode.offset <= decl.start && n.$cstNode.end > decl.end);
                broken.push({ ...decl, blanked: ate });
                errors.push(worded(e, decl));
                if (ate) {
                    text = blank(text, decl.start, decl.end);
                    swallowed = true;
                    break;
                }
            }
            if (!swallowed) break;
            result = parse<T>(text, options);
        }
        return { ...result, parserErrors: errors, broken };
    }) as P['parse'];
    return parser;
}

/** Where an error is: its token, or (a token the parser made up, or the end of the file) the token before it. */
function offsetOf(e: IRecognitionException): number {
    const previous = (e as { previousToken?: IToken }).previousToken;
    if (previous && !isEnd(previous) && (isEnd(e.token) || e.token.startLine! > (previous.endLine ?? previous.startLine!)))
        return previous.startOffset;
    return isEnd(e.token) ? (previous && !isEnd(previous) ? previous.startOffset : 0) : e.token.startOffset;
}

/**
 * The error as the user reads it: located after the last token typed when the parser only noticed the gap at a later
 * line, prefixed with the declaration it is in.
 */
function worded(e: IRecognitionException, decl: Declaration): IRecognitionException {
    const previous = (e as { previousToken?: IToken }).previousToken;
    const gap =
        previous && !isEnd(previous) && (isEnd(e.token) || e.token.startLine! > (previous.endLine ?? previous.startLine!));
    // Text after the last declaration is not part of it.
    const what =
        decl.keyword && e.name !== 'NotAllInputParsedException' ? `${decl.keyword}${decl.name ? ` ${decl.name}` : ''}` : '';
    const message = what
        ? `${gap ? `Unfinished ${what}` : `In ${what}`}: ${e.message.charAt(0).toLowerCase()}${e.message.slice(1)}`
        : e.message;
    // A token without a position makes Langium place the diagnostic right after `previousToken`.
    const token = gap
        ? { ...e.token, startOffset: NaN, endOffset: NaN, startLine: NaN, endLine: NaN, startColumn: NaN, endColumn: NaN }
        : e.token;
    return {
        name: e.name,
        message,
        token,
        resyncedTokens: e.resyncedTokens,
        context: e.context,
        ...(previous ? { previousToken: previous } : {}),
    } as IRecognitionException;
}
