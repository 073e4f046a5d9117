import {
    createDefaultCoreModule,
    createLangiumParser,
    createDefaultSharedCoreModule,
    inject,
    type DeepPartial,
    type DefaultSharedCoreModuleContext,
    type LangiumSharedCoreServices,
    type Module,
    type PartialLangiumCoreServices,
} from 'langium';
import { ProbeSpecGeneratedModule, ProbeSpecGeneratedSharedModule } from './generated/module.js';
import { ProbeScopeComputation, ProbeScopeProvider } from './scope.js';
import { registerValidationChecks } from './validator.js';
import { ProbeLinker } from './linker.js';
import { ProbeTokenBuilder } from './tokens.js';
import { ProbeDocumentValidator } from './document-validator.js';
import { withoutSpreads } from './parse-guard.js';
import { ProbeDocumentFactory } from './documents.js';
import { LiveDescriptionProvider } from './descriptions.js';
import { LazyReferenceIndexManager, ReferenceDescriptions } from './reference-index.js';
import { ProbeParserErrorMessageProvider, recoveringParser } from './parse-errors.js';

import type { ProbeAddedServices, ProbeModuleOverride, ProbeServices } from './services.js';

export type { ProbeAddedServices, ProbeModuleOverride, ProbeServices } from './services.js';

export const ProbeModule: Module<ProbeServices, PartialLangiumCoreServices & ProbeAddedServices> = {
    parser: {
        TokenBuilder: () => new ProbeTokenBuilder(),
        LangiumParser: services => recoveringParser(withoutSpreads(createLangiumParser(services))),
        ParserErrorMessageProvider: () => new ProbeParserErrorMessageProvider(),
    },
    references: {
        ScopeProvider: services => new ProbeScopeProvider(services),
        ScopeComputation: services => new ProbeScopeComputation(services),
        Linker: services => new ProbeLinker(services),
    },
    validation: {
        DocumentValidator: services => new ProbeDocumentValidator(services),
    },
    workspace: {
        ReferenceDescriptionProvider: services => new ReferenceDescriptions(services),
        AstNodeDescriptionProvider: services => new LiveDescriptionProvider(services),
    },
};

/** The shared services the language changes: documents re-parse only what an edit touched; references are indexed when asked for. */
export const ProbeSharedModule: Module<LangiumSharedCoreServices, DeepPartial<LangiumSharedCoreServices>> = {
    workspace: {
        LangiumDocumentFactory: shared => new ProbeDocumentFactory(shared),
        IndexManager: shared => new LazyReferenceIndexManager(shared),
    },
};

/**
 * Creates the language's core services (the CLI with NodeFileSystem, tests with EmptyFileSystem). Each call makes
 * an independent workspace: whoever holds the result owns its documents.
 */
export function createProbeServices(
    context: DefaultSharedCoreModuleContext,
    ...overrides: Module<ProbeServices, ProbeModuleOverride>[]
): {
    shared: LangiumSharedCoreServices;
    probe: ProbeServices;
} {
    const shared = inject(createDefaultSharedCoreModule(context), ProbeSpecGeneratedSharedModule, ProbeSharedModule);
    const probe = inject(createDefaultCoreModule({ shared }), ProbeSpecGeneratedModule, ProbeModule, ...overrides);
    shared.ServiceRegistry.register(probe);
    registerValidationChecks(probe);
    // Nobody triggers the index build without an LSP connection: configure it here (as Langium's examples do).
    shared.workspace.ConfigurationProvider.initialized({});
    return { shared, probe };
}

export type { LangiumSharedCoreServices, PartialLangiumCoreServices };
