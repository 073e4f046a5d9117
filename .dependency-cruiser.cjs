/**
 * The layering of src/, checked by dependency-cruiser in `npm test` (and `npm run layering`). docs/architecture.md
 * ("Rooms and layers") explains each rule. Type-only imports count: a type cycle is still a knot in the design.
 *
 *   faces (cli, server, extension)  →  core rooms through their index.ts (or light.ts: nothing native)
 *   registry (core/probes/registry.ts)  →  families (core/families/<kind>/)  →  contract + shared rooms below
 */
const FAMILY = '^src/core/families/([^/]+)/';
const REGISTRY = '^src/core/probes/registry\\.ts$';
/** The family contract: its core and each capability, a module each (core/probes/contract/). */
const CONTRACT = '^src/core/probes/contract/[^/]+\\.ts$';
/**
 * Leaf modules: they import nothing but the types of other leaves, so loading one loads no code and nothing can
 * make a cycle through them. The family contract's modules are; the rest are the shapes they name.
 */
const LEAVES = [
    CONTRACT,
    '^src/core/probes/(plan-types|estimate-types|question)\\.ts$',
    '^src/core/problem\\.ts$',
    '^src/core/spec/model\\.ts$',
    '^src/core/data/types\\.ts$',
    '^src/core/kg/path\\.ts$',
    '^src/core/verify/(types|figures)\\.ts$',
    '^src/core/reader/types\\.ts$',
    '^src/core/models/types\\.ts$',
    '^src/core/store/types\\.ts$',
    '^src/protocol/webview\\.ts$',
];

module.exports = {
    forbidden: [
        {
            name: 'no-cycle',
            comment:
                'No module imports itself through others, anywhere in src/, type imports included: a type cycle is still a knot (shared types go in a module of their own).',
            severity: 'error',
            from: { path: '^src/' },
            to: { circular: true },
        },
        {
            name: 'family-imports-no-other-family',
            comment: 'A probe family is one folder: it imports the contract and shared rooms, never another family.',
            severity: 'error',
            from: { path: FAMILY },
            to: { path: '^src/core/families/[^/]+/', pathNot: '^src/core/families/$1/' },
        },
        {
            name: 'shared-rooms-import-no-family',
            comment:
                'Only the registry knows the families; every other room asks it for a core (coreOf) or a capability (capabilityOf).',
            severity: 'error',
            from: { path: '^src/core/', pathNot: [FAMILY, REGISTRY] },
            to: { path: '^src/core/families/' },
        },
        {
            name: 'faces-import-no-family',
            comment: 'CLI, language server and extension reach a family only through the registry and engine steps.',
            severity: 'error',
            from: { path: '^src/(cli|server|extension)/' },
            to: { path: '^src/core/families/' },
        },
        {
            name: 'contract-is-a-leaf',
            comment:
                'The family contract (core/probes/contract/: the core and each capability) imports only leaf type modules (LEAVES): no registry, no engine room, no report, no family, no store class.',
            severity: 'error',
            from: { path: CONTRACT },
            to: { pathNot: LEAVES },
        },
        {
            name: 'leaves-import-only-leaves',
            comment:
                'A leaf type module imports other leaves only, so the contract stays a leaf however the shapes it names grow.',
            severity: 'error',
            from: { path: LEAVES },
            to: { pathNot: LEAVES },
        },
        {
            name: 'leaves-import-types-only',
            comment:
                'A leaf imports the types of other leaves (`import type`), never their code: loading the contract loads nothing.',
            severity: 'error',
            from: { path: LEAVES },
            to: { dependencyTypesNot: ['type-only'] },
        },
        {
            name: 'core-imports-no-face',
            comment: 'The engine never imports a face (cli, server, extension) or vscode.',
            severity: 'error',
            from: { path: '^src/core/' },
            to: { path: ['^src/(cli|server|extension)/', '^vscode$'] },
        },
        {
            name: 'faces-through-index',
            comment:
                "Faces import a core room through its front door: index.ts, or light.ts (the part that loads no native module, for the extension's eagerly loaded files); one-file rooms are their own.",
            severity: 'error',
            from: { path: '^src/(cli|server|extension)/' },
            to: { path: '^src/core/[^/]+/', pathNot: ['^src/core/[^/]+/(index|light)\\.ts$', '^src/core/[^/]+\\.ts$'] },
        },
    ],
    options: {
        tsPreCompilationDeps: true,
        tsConfig: { fileName: 'tsconfig.json' },
        doNotFollow: { path: 'node_modules' },
        exclude: { path: '^src/core/language/generated/' },
    },
};
