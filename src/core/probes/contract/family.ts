/**
 * A probe family: everything one kind of probe means (binary, choice, path, knows, statement, rule, evidence, open),
 * as a required core and optional capabilities, each a small typed object in its own leaf module of this folder:
 *
 *   core         core.ts         kind, words, settings, compile, phrasings, parse, score, group relations
 *   report       report.ts       tables, charts, JSON fields, paper cells, failure explanations
 *   simulator    simulator.ts    the offline simulator's answers and rates
 *   modelSteps   model-steps.ts  models read at generation, per-answer calls, steps after verification
 *   estimate     estimate.ts     `halluprobe estimate` over one of its probes
 *   graph        graph.ts        the graph panel's question view
 *   figures      figures.ts      figures beyond A / R / AR / M / H (per group or across phrasings), their columns
 *
 * Generation, verification, metrics, reports, the offline simulator and every face ask the registry
 * (src/core/probes/registry.ts) for a family's core or one capability; nothing outside the family modules switches
 * on a kind. To add a family: one folder exporting a `ProbeFamily`, one line in `BUILTIN_FAMILIES` (the compiler
 * checks its core and each capability it declares), its docs in its section of docs/probes.md (named by
 * `core.docs`). See docs/architecture.md.
 *
 * Leaves, types only: these modules import nothing but the types of other leaf modules (plan-types, estimate-types,
 * question, spec/model, data/types, verify/types, verify/figures, store/types, models/types, problem,
 * protocol/webview), so they load no code and no engine room can reach a family through them (`contract-is-a-leaf`
 * in .dependency-cruiser.cjs).
 */
import type { FamilyCore } from './core.js';
import type { ReportCapability } from './report.js';
import type { SimulatorCapability } from './simulator.js';
import type { ModelStepsCapability } from './model-steps.js';
import type { EstimateCapability } from './estimate.js';
import type { GraphCapability } from './graph.js';
import type { FiguresCapability } from './figures.js';

/** A family: its core, and the capabilities it has. */
export interface ProbeFamily {
    readonly core: FamilyCore;
    readonly report?: ReportCapability;
    readonly simulator?: SimulatorCapability;
    readonly modelSteps?: ModelStepsCapability;
    readonly estimate?: EstimateCapability;
    readonly graph?: GraphCapability;
    readonly figures?: FiguresCapability;
}

/** The name of an optional capability. */
export type Capability = Exclude<keyof ProbeFamily, 'core'>;
