/**
 * The language's services with Langium's LSP layer, as a type: the features (hover, completion) name it and
 * module.ts builds it, so the features do not import the module that creates them.
 */
import type { LangiumServices } from 'langium/lsp';
import type { ProbeAddedServices } from '../core/language/index.js';

/** The engine's ProbeModule services plus the editor features. */
export type ProbeServices = LangiumServices & ProbeAddedServices;
