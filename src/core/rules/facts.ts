// Placeholder until branch h14a's base facts are merged (it replaces this file).
import type { LoadedData } from '../data/types.js';
import type { SpecModel } from '../spec/model.js';
import type { FactBase } from './ir.js';

export function baseFacts(_spec: SpecModel, _data: LoadedData): FactBase {
    throw new Error('the rules base facts are not merged yet (branch h14a)');
}
