/**
 * The verdict rule's hand-made shortcuts must read exactly as the expressions they stand before (src/core/reader/
 * verdict.ts): the tables of the first two characters a phrase of OPENER, BOILERPLATE or verdictAt's expressions may
 * start with (a phrase missing from a table would never be read), and matchedAt, which tells which of verdictAt's
 * expressions matched from the first letter and the length of the match.
 * The phrases are every phrase the expressions themselves spell out: each alternative of each group, each optional
 * part taken and left, a small character class taken whole, in upper and lower case; so a word added to an
 * expression and not to its table fails here.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SHORTCUTS } from '../../../src/core/reader/verdict.js';

/** The phrases an expression spells out (see the file comment); at most `cap`. */
function phrases(re: RegExp, cap = 50_000): string[] {
    const src = re.source;
    let i = 0;
    // alternatives of a sequence, until ")" or the end
    function alternation(): string[] {
        const alts: string[] = [];
        let seq = sequence();
        alts.push(...seq);
        while (src[i] === '|') {
            i++;
            seq = sequence();
            alts.push(...seq);
        }
        return alts.slice(0, cap);
    }
    function sequence(): string[] {
        let out = [''];
        while (i < src.length && src[i] !== '|' && src[i] !== ')') {
            const [atom, lookaround] = atomAt();
            let options = atom;
            const q = src[i];
            if (q === '?' || q === '*') {
                i++;
                options = ['', ...atom];
            } else if (q === '+') i++;
            else if (q === '{') {
                const close = src.indexOf('}', i);
                const min = Number(src.slice(i + 1, close).split(',')[0]);
                i = close + 1;
                options = atom.map(a => a.repeat(Math.max(min, 1)));
            }
            if (src[i] === '?') i++; // lazy
            if (lookaround) continue;
            const next: string[] = [];
            for (const a of out) for (const b of options) if (next.length < cap) next.push(a + b);
            out = next;
        }
        return out;
    }
    function atomAt(): [string[], boolean] {
        const c = src[i]!;
        if (c === '(') {
            let look = false;
            if (src.startsWith('(?:', i)) i += 3;
            else if (src.startsWith('(?=', i) || src.startsWith('(?!', i)) {
                i += 3;
                look = true;
            } else i++;
            const inner = alternation();
            i++; // ")"
            return [inner, look];
        }
        if (c === '[') {
            const close = classEnd(i);
            const body = src.slice(i + 1, close);
            i = close + 1;
            if (body.startsWith('^')) return [['x'], false];
            const members = classMembers(body);
            return [members.length <= 6 ? members : members.slice(0, 1), false];
        }
        if (c === '^' || c === '$') {
            i++;
            return [[''], false];
        }
        if (c === '.') {
            i++;
            return [['x'], false];
        }
        if (c === '\\') return [[escape()], false];
        i++;
        return [[c], false];
    }
    function classEnd(from: number): number {
        let k = from + 1;
        while (src[k] !== ']') k += src[k] === '\\' ? 2 : 1;
        return k;
    }
    function classMembers(body: string): string[] {
        const out: string[] = [];
        for (let k = 0; k < body.length;) {
            if (body[k] === '\\') {
                const save = i;
                i = 0;
                const sub = body.slice(k);
                const e = escapeOf(sub);
                out.push(e.char);
                k += e.length;
                i = save;
            } else out.push(body[k++]!);
        }
        return out;
    }
    function escape(): string {
        const e = escapeOf(src.slice(i));
        i += e.length;
        return e.char;
    }
    return alternation().filter(p => p.length > 0);
}

/** One escape at the start of `s`: the character it stands for (\s a space, \b nothing, \d a digit) and its length. */
function escapeOf(s: string): { char: string; length: number } {
    const c = s[1]!;
    if (c === 'u') return { char: String.fromCharCode(parseInt(s.slice(2, 6), 16)), length: 6 };
    if (c === 's') return { char: ' ', length: 2 };
    if (c === 'b') return { char: '', length: 2 };
    if (c === 'd') return { char: '1', length: 2 };
    if (c === 'n') return { char: '\n', length: 2 };
    return { char: c, length: 2 };
}

/** Each phrase as written, in upper case, and capitalised. */
function cased(ps: string[]): string[] {
    return ps.flatMap(p => [p, p.toUpperCase(), p.charAt(0).toUpperCase() + p.slice(1)]);
}

describe('verdict.ts shortcuts read as their expressions', () => {
    for (const { name, table, expressions } of SHORTCUTS.tables)
        it(`${name} holds the first two characters of every phrase its expressions spell out`, () => {
            let read = 0;
            for (const re of expressions)
                for (const p of cased(phrases(re))) {
                    // a phrase the expression does not read as written (a look-ahead not met) says nothing of the table
                    if (!re.test(p)) continue;
                    read++;
                    assert.ok(SHORTCUTS.mayStartAt(table, p + ' ', 0), `${name} lacks the start of ${JSON.stringify(p)}`);
                }
            // the expressions spell out hundreds of phrases: a generator that read none would prove nothing
            assert.ok(read > 100, `only ${read} phrases read`);
        });

    it("matchedAt names the expression verdictAt's combined expression matched, for every phrase and what may follow", () => {
        const { VERDICT_AT, VERDICT_AT_ALONE, BOTH, UNSURE_AT, CONCEDES, NEG_AT, POS_AT } = SHORTCUTS.verdictAt;
        const starts = cased([BOTH, UNSURE_AT, CONCEDES, NEG_AT, POS_AT].flatMap(re => phrases(re)));
        const after = [
            '',
            '.',
            ',',
            ' ',
            '!',
            ' it is',
            ', it',
            ' movie',
            ' \u2014',
            ':',
            '*',
            ' so',
            '/unsure',
            ' and no',
            ' and yes',
            ' that it',
        ];
        let compared = 0;
        for (const s of starts)
            for (const a of after)
                for (const alone of [false, true]) {
                    const head = s + a;
                    const re = alone ? VERDICT_AT_ALONE : VERDICT_AT;
                    re.lastIndex = 0;
                    const m = re.exec(head);
                    if (!m) continue;
                    const group = [1, 2, 3, 4, 5].find(g => m[g] !== undefined);
                    compared++;
                    assert.equal(SHORTCUTS.matchedAt(head, m[0].length, alone), group, JSON.stringify(head));
                }
        assert.ok(compared > 1000, `only ${compared} compared`);
    });
});
