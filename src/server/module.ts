import {
    createCompletionParser,
    inject,
    interruptAndCheck,
    isOperationCancelled,
    URI,
    type Cancellation,
    type DeepPartial,
    type LangiumCompletionParser,
    type LangiumDocument,
    type Module,
} from 'langium';
import {
    AbstractExecuteCommandHandler,
    createDefaultModule,
    createDefaultSharedModule,
    type DefaultSharedModuleContext,
    type ExecuteCommandAcceptor,
    type LangiumSharedServices,
    type PartialLangiumServices,
} from 'langium/lsp';
import type { Diagnostic } from 'vscode-languageserver';
import { ProbeModule, ProbeSharedModule, type ProbeAddedServices } from '../core/language/index.js';
import { ProbeSpecGeneratedModule, ProbeSpecGeneratedSharedModule } from '../core/language/index.js';
import { registerValidationChecks } from '../core/language/index.js';

import type { ProbeServices } from './services.js';

export type { ProbeServices } from './services.js';
type ProbeModuleOverride = DeepPartial<ProbeServices>;
import { ProbeDocumentValidator } from '../core/language/index.js';
import { documentPath } from '../core/language/index.js';
import type { SpecDiagnostic } from '../core/spec/index.js';
import { OPEN_DATA_ROW_COMMAND, type OpenDataRowArguments } from '../protocol/lsp.js';
import { SpecDataService, type DataLoader, type SpecData } from './data.js';
import { ProbeHoverProvider } from './features/hover.js';
import { ProbeCompletionProvider, type HeaderReader } from './features/completion.js';
import { ProbeCodeActionProvider } from './features/code-actions.js';
import { ProbeFormatter } from './features/formatter.js';
import { ProbeSemanticTokenProvider } from './features/semantic-tokens.js';
import { ImportLoadingDocumentBuilder } from './imports.js';
import { SafeDocumentFactory } from './documents.js';
import { ProbeDocumentSymbolProvider } from './features/symbols.js';

/** What the server needs from the data layer; absent in tests of language-only features. */
export interface ServerDataOptions {
    loadData?: DataLoader;
    readHeader?: HeaderReader;
    /**
     * Extra spec-level diagnostics computed from the loaded data (e.g. the probe generator's); `reported`: the
     * language's diagnostics of the document, so that what follows from them is not reported again. They stop when
     * the build is cancelled.
     */
    moreDiagnostics?: (
        loaded: SpecData,
        reported: SpecDiagnostic[],
        cancelToken?: Cancellation.CancellationToken,
    ) => SpecDiagnostic[] | Promise<SpecDiagnostic[]>;
}

const SEVERITY = { error: 1, warning: 2, info: 3, hint: 4 } as const;

/** Language diagnostics plus the data checks of the spec rooted at the document (only this file's share). */
class DataDocumentValidator extends ProbeDocumentValidator {
    constructor(
        services: ProbeServices,
        private readonly data: SpecDataService,
        private readonly more: ServerDataOptions['moreDiagnostics'],
    ) {
        super(services);
    }

    protected override async moreDiagnostics(
        document: LangiumDocument,
        language: Diagnostic[],
        cancelToken?: Cancellation.CancellationToken,
    ): Promise<Diagnostic[]> {
        if (!this.data.enabled) return [];
        const loaded = await this.data.forDocument(document, language);
        if (!loaded) return [];
        if (cancelToken) await interruptAndCheck(cancelToken);
        const file = documentPath(document.uri);
        let more: SpecDiagnostic[] = [];
        const reported: SpecDiagnostic[] = language.map(d => ({
            file,
            range: d.range,
            severity: d.severity === 1 ? 'error' : 'warning',
            code: String(d.code ?? ''),
            message: typeof d.message === 'string' ? d.message : d.message.value,
        }));
        try {
            more = (await this.more?.(loaded, reported, cancelToken)) ?? [];
        } catch (e) {
            if (isOperationCancelled(e)) throw e;
            // A bug in a later stage must not hide the language and data diagnostics; log it for a report.
            console.error(`HalluProbe: probe diagnostics failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        }
        const all = [...loaded.data.diagnostics, ...more];
        return all
            .filter(d => d.file === file)
            .map(d => ({
                range: d.range,
                severity: SEVERITY[d.severity],
                code: d.code,
                message: d.message,
                source: 'halluprobe',
                data: { ...(d.data ?? {}), code: d.code },
            }));
    }
}

/**
 * The completion parser, built on the first completion instead of at start-up: it is a second parser of the whole
 * grammar, and building it was a tenth of the server's work before a window reload's first diagnostics (issue 39).
 * Completion only ever calls `parse`.
 */
class LazyCompletionParser {
    private parser?: LangiumCompletionParser;
    constructor(private readonly services: ProbeServices) {}

    parse(input: string): ReturnType<LangiumCompletionParser['parse']> {
        return (this.parser ??= createCompletionParser(this.services)).parse(input);
    }
}

/** Runs the server-side half of the custom commands declared in src/protocol/lsp.ts. */
class ProbeCommandHandler extends AbstractExecuteCommandHandler {
    constructor(private readonly services: () => ProbeServices) {
        super();
    }

    registerCommands(accept: ExecuteCommandAcceptor): void {
        accept(OPEN_DATA_ROW_COMMAND, async args => {
            const [uri, line] = args as OpenDataRowArguments;
            const position = { line: Math.max(0, line - 1), character: 0 };
            await this.services().shared.lsp.Connection?.window.showDocument({
                uri: URI.parse(uri).toString(),
                takeFocus: true,
                selection: { start: position, end: position },
            });
            return undefined;
        });
    }
}

/**
 * The language services with the editor features (and `data`, so the entry can watch data files): the same factory as the CLI's plus hover, completion,
 * quick fixes, formatting, semantic tokens and the data diagnostics (through ONE data cache, owned by the caller).
 */
export function createProbeServerServices(context: DefaultSharedModuleContext, options: ServerDataOptions = {}) {
    let data: SpecDataService | undefined;
    const dataOf = (services: ProbeServices) => (data ??= new SpecDataService(services.shared, options.loadData));
    const features: Module<ProbeServices, ProbeModuleOverride> = {
        lsp: {
            HoverProvider: services => new ProbeHoverProvider(services, dataOf(services)),
            CompletionProvider: services => new ProbeCompletionProvider(services, dataOf(services), options.readHeader),
            CodeActionProvider: services => new ProbeCodeActionProvider(dataOf(services)),
            Formatter: () => new ProbeFormatter(),
            SemanticTokenProvider: services => new ProbeSemanticTokenProvider(services),
            DocumentSymbolProvider: services => new ProbeDocumentSymbolProvider(services),
        },
        validation: {
            DocumentValidator: services => new DataDocumentValidator(services, dataOf(services), options.moreDiagnostics),
        },
        parser: { CompletionParser: services => new LazyCompletionParser(services) as unknown as LangiumCompletionParser },
    };
    let probe: ProbeServices | undefined;
    const sharedOverride: Module<LangiumSharedServices, DeepPartial<LangiumSharedServices>> = {
        lsp: { ExecuteCommandHandler: () => new ProbeCommandHandler(() => probe!) },
        workspace: {
            DocumentBuilder: shared => new ImportLoadingDocumentBuilder(shared),
            LangiumDocumentFactory: shared => new SafeDocumentFactory(shared),
        },
    };
    const shared = inject(
        createDefaultSharedModule(context),
        ProbeSpecGeneratedSharedModule,
        ProbeSharedModule as Module<LangiumSharedServices, DeepPartial<LangiumSharedServices>>,
        sharedOverride,
    );
    // The engine's module is written against Langium's core services, a subset of the LSP ones.
    const engineModule = ProbeModule as Module<ProbeServices, PartialLangiumServices & ProbeAddedServices>;
    probe = inject(createDefaultModule({ shared }), ProbeSpecGeneratedModule, engineModule, features);
    shared.ServiceRegistry.register(probe);
    registerValidationChecks(probe);
    if (!context.connection) shared.workspace.ConfigurationProvider.initialized({});
    return { shared, probe, data: dataOf(probe) };
}
