// Placeholder until branch h14a's evaluator is merged (it replaces this file).
import type { Derivation, EvaluateOptions, FactBase, Program } from './ir.js';

export function evaluate(_program: Program, _base: FactBase, _options: EvaluateOptions = {}): Derivation {
    throw new Error('the rules evaluator is not merged yet (branch h14a)');
}
