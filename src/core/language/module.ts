import {
    createDefaultCoreModule, createLangiumParser, createDefaultSharedCoreModule, inject,
    type DeepPartial, type DefaultSharedCoreModuleContext, type LangiumCoreServices, type LangiumSharedCoreServices, type Module, type PartialLangiumCoreServices,
} from 'langium';
import { ProbeSpecGeneratedModule, ProbeSpecGeneratedSharedModule } from './generated/module.js';
import { ProbeScopeProvider } from './scope.js';
import { registerValidationChecks } from './validator.js';
import { ProbeLinker } from './linker.js';
import { ProbeTokenBuilder } from './tokens.js';
import { ProbeDocumentValidator } from './document-validator.js';
import { withoutSpreads } from './parse-guard.js';
import { ProbeParserErrorMessageProvider, recoveringParser } from './parse-errors.js';

/** Services added by the .probe language on top of Langium's (none yet; checks are plain functions). */
export type ProbeAddedServices = object;

/**
 * The language's services as the engine needs them: Langium's core (parsing, linking, validation, workspace),
 * no LSP. The language server builds its LSP services on top of the same `ProbeModule` (src/server/module.ts).
 */
export type ProbeServices = LangiumCoreServices & ProbeAddedServices;

export const ProbeModule: Module<ProbeServices, PartialLangiumCoreServices & ProbeAddedServices> = {
    parser: {
        TokenBuilder: () => new ProbeTokenBuilder(),
        LangiumParser: (services) => recoveringParser(withoutSpreads(createLangiumParser(services))),
        ParserErrorMessageProvider: () => new ProbeParserErrorMessageProvider(),
    },
    references: {
        ScopeProvider: (services) => new ProbeScopeProvider(services),
        Linker: (services) => new ProbeLinker(services),
    },
    validation: {
        DocumentValidator: (services) => new ProbeDocumentValidator(services),
    },
};

/** Extra modules a face may plug in (tests may add fakes). */
export type ProbeModuleOverride = DeepPartial<ProbeServices>;

/**
 * Creates the language's core services (the CLI with NodeFileSystem, tests with EmptyFileSystem). Each call makes
 * an independent workspace: whoever holds the result owns its documents.
 */
export function createProbeServices(context: DefaultSharedCoreModuleContext, ...overrides: Module<ProbeServices, ProbeModuleOverride>[]): {
    shared: LangiumSharedCoreServices;
    probe: ProbeServices;
} {
    const shared = inject(createDefaultSharedCoreModule(context), ProbeSpecGeneratedSharedModule);
    const probe = inject(createDefaultCoreModule({ shared }), ProbeSpecGeneratedModule, ProbeModule, ...overrides);
    shared.ServiceRegistry.register(probe);
    registerValidationChecks(probe);
    // Nobody triggers the index build without an LSP connection: configure it here (as Langium's examples do).
    shared.workspace.ConfigurationProvider.initialized({});
    return { shared, probe };
}

export type { LangiumCoreServices, LangiumSharedCoreServices, PartialLangiumCoreServices };
