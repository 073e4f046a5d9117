/**
 * A rules program and its facts as a Prolog file, and SWI-Prolog run on it: the reference engine the
 * evaluator is checked against (test/integration/rules-prolog.test.ts) and measured against (bench/rules).
 *
 * Every derived predicate is tabled, so left recursion and cycles terminate as they do in the evaluator.
 * Negation keeps the evaluator's sound meaning: `fd` is "the key has a fact, and not this one"
 * (`p(X, _), \+ p(X, Y)`), `complete` is plain absence (`\+ p(X, Y)`); both run on finished lower strata.
 * Values: numbers as numbers, text as quoted atoms, booleans as `bool(true)` / `bool(false)`.
 */
import { spawn } from 'node:child_process';
import type { Atom, Fact, FactBase, Literal, Program, Term, Value } from './ir.js';

/** A Prolog quoted atom: backslash, quote and control characters escaped. */
export function quoteAtom(text: string): string {
    let out = "'";
    for (const ch of text) {
        const code = ch.codePointAt(0)!;
        if (ch === '\\') out += '\\\\';
        else if (ch === "'") out += "\\'";
        else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16)}\\`;
        else out += ch;
    }
    return out + "'";
}

function valueTerm(v: Value): string {
    if (typeof v === 'number') {
        if (!Number.isFinite(v)) throw new Error(`a fact holds ${v}, which Prolog cannot read back`);
        return Number.isInteger(v) ? String(v) : v.toPrecision(17).replace(/0+$/, '').replace(/\.$/, '.0');
    }
    if (typeof v === 'boolean') return `bool(${v})`;
    return quoteAtom(v);
}

class Writer {
    private readonly vars = new Map<string, string>();
    term(t: Term): string {
        if ('const' in t) return valueTerm(t.const);
        let name = this.vars.get(t.var);
        if (!name) {
            name = `V${this.vars.size}`;
            this.vars.set(t.var, name);
        }
        return name;
    }
    atom(a: Atom): string {
        return a.args.length === 0 ? quoteAtom(a.pred) : `${quoteAtom(a.pred)}(${a.args.map(t => this.term(t)).join(', ')})`;
    }
    literal(l: Literal): string {
        if (l.kind === 'atom') return this.atom(l.atom);
        if (l.kind === 'not') {
            if (l.sound === 'complete') return `\\+ ${this.atom(l.atom)}`;
            const [key, ...rest] = l.atom.args;
            const any = { pred: l.atom.pred, args: [key!, ...rest.map(() => ({ var: `_any${this.vars.size}` }))] };
            return `${this.atom(any)}, \\+ ${this.atom(l.atom)}`;
        }
        const a = this.term(l.left),
            b = this.term(l.right);
        switch (l.op) {
            case '=':
                return `${a} = ${b}`;
            case '!=':
                return `${a} \\== ${b}`;
            case '<':
                return `hp_lt(${a}, ${b})`;
            case '<=':
                return `\\+ hp_lt(${b}, ${a})`;
            case '>':
                return `hp_lt(${b}, ${a})`;
            case '>=':
                return `\\+ hp_lt(${a}, ${b})`;
        }
    }
}

/** The program and facts as Prolog source; `goal` lists (or counts) every derived fact. */
export function toProlog(program: Program, base: FactBase, mode: 'list' | 'count' = 'list'): string {
    const derived = [...new Map(program.rules.map(r => [r.head.pred, r.head.args.length])).entries()];
    const lines: string[] = [':- style_check(-singleton).'];
    const arity = new Map<string, number>([...program.base.map(b => [b.name, b.arity] as const), ...derived]);
    for (const [pred, n] of arity) lines.push(`:- dynamic ${quoteAtom(pred)}/${n}.`);
    for (const [pred, n] of derived) lines.push(`:- table ${quoteAtom(pred)}/${n}.`);
    lines.push('hp_lt(X, Y) :- number(X), number(Y), !, X < Y.', 'hp_lt(X, Y) :- atom(X), atom(Y), X @< Y.');
    for (const [pred, rows] of base) {
        for (const row of rows) lines.push(`${quoteAtom(pred)}(${row.map(valueTerm).join(', ')}).`);
    }
    for (const rule of program.rules) {
        const w = new Writer();
        // Atoms bind first, so a comparison or a negation always meets bound variables (as in the evaluator).
        const ordered = [
            ...rule.body.filter(l => l.kind === 'atom'),
            ...rule.body.filter(l => l.kind === 'compare' && l.op === '='),
            ...rule.body.filter(l => l.kind !== 'atom' && !(l.kind === 'compare' && l.op === '=')),
        ];
        const head = w.atom(rule.head);
        lines.push(ordered.length === 0 ? `${head}.` : `${head} :- ${ordered.map(l => w.literal(l)).join(', ')}.`);
    }
    const each = derived.map(([pred, n], k) => {
        const args = Array.from({ length: n }, (_, i) => `A${i}`);
        const call = n === 0 ? quoteAtom(pred) : `${quoteAtom(pred)}(${args.join(', ')})`;
        return mode === 'count'
            ? `aggregate_all(count, ${call}, C${k}), format("~w\\t~w~n", [${quoteAtom(pred)}, C${k}])`
            : `forall(${call}, (hp_out(${quoteAtom(pred)}, [${args.join(', ')}])))`;
    });
    lines.push(
        'hp_value(V) :- number(V), !, format("\\tn~w", [V]).',
        'hp_value(bool(B)) :- !, format("\\tb~w", [B]).',
        'hp_value(V) :- atom_codes(V, Cs), atomic_list_concat(Cs, ",", T), format("\\ts~w", [T]).',
        'hp_out(P, Args) :- atom_codes(P, Cs), atomic_list_concat(Cs, ",", T), format("~w", [T]), forall(member(A, Args), hp_value(A)), nl.',
        // Count mode also reports how long deriving took, apart from reading the file (benchmarks compare that).
        mode === 'count'
            ? `main :- get_time(T0), ${each.length ? each.join(', ') : 'true'}, get_time(T1), Ms is (T1 - T0) * 1000, format("HP_MS\\t~w~n", [Ms]).`
            : `main :- ${each.length ? each.join(', ') : 'true'}.`,
    );
    return lines.join('\n') + '\n';
}

/** Reads back the lines `hp_out` prints. */
export function parsePrologFacts(text: string): Fact[] {
    const codes = (s: string) => (s === '' ? '' : String.fromCodePoint(...s.split(',').map(Number)));
    return text
        .split('\n')
        .filter(Boolean)
        .map(line => {
            const [pred, ...args] = line.split('\t');
            return {
                pred: codes(pred!),
                args: args.map(a =>
                    a[0] === 'n' ? Number(a.slice(1)) : a[0] === 'b' ? a.slice(1) === 'true' : codes(a.slice(1)),
                ),
            };
        });
}

export interface PrologRun {
    stdout: string;
    millis: number;
    peakMB?: number;
}

/**
 * Runs SWI-Prolog on a file written by `toProlog` (consulted, then `main`). With `measure`, GNU time reports the
 * process's peak memory. Rejects on a non-zero exit, a missing `swipl`, or the timeout.
 */
export function runSwipl(
    file: string,
    options: { timeoutMs?: number; measure?: boolean; stackLimit?: string } = {},
): Promise<PrologRun> {
    const swipl = ['swipl', `--stack-limit=${options.stackLimit ?? '8g'}`, '-q', '-g', 'main', '-t', 'halt', file];
    const [cmd, ...args] = options.measure ? ['/usr/bin/time', '-f', 'HP_PEAK_KB=%M', ...swipl] : swipl;
    return new Promise((resolve, reject) => {
        const started = performance.now();
        const child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        const out: Buffer[] = [],
            err: Buffer[] = [];
        child.stdout.on('data', (b: Buffer) => out.push(b));
        child.stderr.on('data', (b: Buffer) => err.push(b));
        const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 600_000);
        child.on('error', e => {
            clearTimeout(timer);
            reject(new Error(`SWI-Prolog could not start (${e.message}); install it with: apt-get install swi-prolog-nox`));
        });
        child.on('close', (code, signal) => {
            clearTimeout(timer);
            const millis = performance.now() - started;
            const stderr = Buffer.concat(err).toString('utf8');
            if (code !== 0) return reject(new Error(`SWI-Prolog exited with ${signal ?? code}: ${stderr.slice(-2000)}`));
            const peak = /HP_PEAK_KB=(\d+)/.exec(stderr);
            resolve({ stdout: Buffer.concat(out).toString('utf8'), millis, ...(peak ? { peakMB: Number(peak[1]) / 1024 } : {}) });
        });
    });
}
