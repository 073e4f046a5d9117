import tseslint from 'typescript-eslint';

const noVscode = {
    paths: [
        { name: 'vscode', message: 'The engine, the protocol and the webviews must not depend on VS Code: move this to src/extension.' },
        { name: 'vscode-languageclient', message: 'Language client code belongs in src/extension.' },
        { name: 'vscode-languageclient/node', message: 'Language client code belongs in src/extension.' },
        { name: 'vscode-languageserver/node', message: 'Server wiring belongs in src/server; keep features pure.' },
    ],
};

export default tseslint.config(
    { ignores: ['dist/**', 'out/**', 'node_modules/**', 'src/core/language/generated/**', 'test-artifacts/**', 'bench/results/**'] },
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
        files: ['src/core/**/*.ts', 'src/protocol/**/*.ts', 'webview/**/*.ts'],
        rules: { 'no-restricted-imports': ['error', noVscode], '@typescript-eslint/no-restricted-imports': 'off' },
    },
);
