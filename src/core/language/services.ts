/**
 * The language's services as types: the validation checks name them and module.ts builds them, so the checks do not
 * import the module that registers them.
 */
import type { DeepPartial, LangiumCoreServices } from 'langium';

/** Services added by the .probe language on top of Langium's (none yet; checks are plain functions). */
export type ProbeAddedServices = object;

/**
 * The language's services as the engine needs them: Langium's core (parsing, linking, validation, workspace),
 * no LSP. The language server builds its LSP services on top of the same `ProbeModule` (src/server/module.ts).
 */
export type ProbeServices = LangiumCoreServices & ProbeAddedServices;

/** Extra modules a face may plug in (tests may add fakes). */
export type ProbeModuleOverride = DeepPartial<ProbeServices>;
