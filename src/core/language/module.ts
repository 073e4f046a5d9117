import { inject, type DeepPartial, type LangiumCoreServices, type LangiumSharedCoreServices, type Module, type PartialLangiumCoreServices } from 'langium';
import { createDefaultModule, createDefaultSharedModule, type DefaultSharedModuleContext, type LangiumServices, type LangiumSharedServices, type PartialLangiumServices } from 'langium/lsp';
import { ProbeSpecGeneratedModule, ProbeSpecGeneratedSharedModule } from './generated/module.js';
import { ProbeScopeProvider } from './scope.js';
import { registerValidationChecks } from './validator.js';
import { ProbeLinker } from './linker.js';
import { ProbeTokenBuilder } from './tokens.js';
import { ProbeDocumentValidator } from './document-validator.js';

/** Services added by the .probe language on top of Langium's (none yet; checks are plain functions). */
export type ProbeAddedServices = object;

export type ProbeServices = LangiumServices & ProbeAddedServices;

export const ProbeModule: Module<ProbeServices, PartialLangiumServices & ProbeAddedServices> = {
    parser: {
        TokenBuilder: () => new ProbeTokenBuilder(),
    },
    references: {
        ScopeProvider: (services) => new ProbeScopeProvider(services),
        Linker: (services) => new ProbeLinker(services),
    },
    validation: {
        DocumentValidator: (services) => new ProbeDocumentValidator(services),
    },
};

/** Extra modules a face may plug in (the language server adds its LSP features, tests may add fakes). */
export type ProbeModuleOverride = DeepPartial<ProbeServices>;

/**
 * Creates the language services. The same factory serves the language server (with a connection), the CLI
 * (NodeFileSystem) and tests (EmptyFileSystem).
 */
export function createProbeServices(context: DefaultSharedModuleContext, ...overrides: Module<ProbeServices, ProbeModuleOverride>[]): {
    shared: LangiumSharedServices;
    probe: ProbeServices;
} {
    return createProbeServicesWith(context, overrides);
}

/** As createProbeServices, with overrides of the shared services too (the server adds its command handler). */
export function createProbeServicesWith(context: DefaultSharedModuleContext, overrides: Module<ProbeServices, ProbeModuleOverride>[],
    sharedOverride: Module<LangiumSharedServices, DeepPartial<LangiumSharedServices>> = {}): { shared: LangiumSharedServices; probe: ProbeServices } {
    const shared = inject(createDefaultSharedModule(context), ProbeSpecGeneratedSharedModule, sharedOverride);
    const probe = inject(
        createDefaultModule({ shared }),
        ProbeSpecGeneratedModule,
        ProbeModule,
        ...overrides,
    );
    shared.ServiceRegistry.register(probe);
    registerValidationChecks(probe);
    if (!context.connection) {
        // Without a connection nobody triggers the index build, so configure it here (as Langium's examples do).
        shared.workspace.ConfigurationProvider.initialized({});
    }
    return { shared, probe };
}

export type { LangiumCoreServices, LangiumSharedCoreServices, PartialLangiumCoreServices };
