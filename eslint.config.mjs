import tseslint from 'typescript-eslint';

const noVscode = {
    paths: [
        {
            name: 'vscode',
            message: 'The engine, the protocol and the webviews must not depend on VS Code: move this to src/extension.',
        },
        { name: 'vscode-languageclient', message: 'Language client code belongs in src/extension.' },
        { name: 'vscode-languageclient/node', message: 'Language client code belongs in src/extension.' },
        { name: 'vscode-languageserver/node', message: 'Server wiring belongs in src/server; keep features pure.' },
        {
            name: 'vscode-languageserver',
            message: 'LSP types belong in src/server and src/extension; the engine reports SpecDiagnostic / Problem.',
        },
        {
            name: 'langium/lsp',
            message: "The engine builds on Langium's core services ('langium'); the LSP layer is added in src/server/module.ts.",
        },
    ],
};

/** Webviews run in a browser and talk to the host by messages: they import the protocol, never the engine or the host. */
const webviewOnly = {
    ...noVscode,
    patterns: [
        {
            group: ['**/src/core/**', '**/src/extension/**', '**/src/server/**', '**/src/cli/**'],
            message: 'A webview imports src/protocol only.',
        },
    ],
};

export default tseslint.config(
    {
        ignores: [
            'dist/**',
            'out/**',
            'node_modules/**',
            'src/core/language/generated/**',
            'test-artifacts/**',
            'bench/results/**',
        ],
    },
    {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { '@typescript-eslint': tseslint.plugin },
        rules: {
            'no-debugger': 'error',
            '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
        },
    },
    {
        files: ['src/core/**/*.ts', 'src/protocol/**/*.ts'],
        rules: { 'no-restricted-imports': ['error', noVscode], '@typescript-eslint/no-restricted-imports': 'off' },
    },
    {
        files: ['webview/**/*.ts'],
        rules: { 'no-restricted-imports': ['error', webviewOnly], '@typescript-eslint/no-restricted-imports': 'off' },
    },
);
