/** Question generation: the public API of the probes room. */
export { generateQuestions, type GenerationStats, type GenerateOptions, type ProbeStats } from './generate.js';
export { probeDiagnostics, withoutFollowOns } from './diagnostics.js';
export { diffGenerations, questionFingerprint, questionId } from './ids.js';
export { prng, hashSeed, rowOrder } from './sampling.js';
export * from './prompts.js';
export { questionRecord, type Question } from './question.js';
export { findCore } from './registry.js';
export { type ChatMessage, goldText } from './question.js';
