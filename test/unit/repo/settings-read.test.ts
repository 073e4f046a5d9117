// Every setting is declared once and read through its declaration (issue 33). With the type checker over src/:
// a read is a property of a table's typed view (`TABLE.read(settings).name`, or destructured from it; the view's
// `$settings` names the table's scope). The test fails when a declared setting has no reader (a setting that is
// validated, completed and documented but changes nothing), when a read names no declaration, and when code reads
// the raw `Settings` of a block by a name (`probe.settings.x`, `settings[name]`) or casts it or a typed view (`as any`)
// anywhere but the accessor itself.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import ts from 'typescript';
import { BUILTIN_FAMILIES } from '../../../src/core/probes/registry.js';
import { PROBE_SETTINGS, SUITE_SETTINGS } from '../../../src/core/probes/settings.js';
import { RUN_SUITE_SETTINGS } from '../../../src/core/run/settings.js';
import { MODEL_SETTINGS } from '../../../src/core/models/settings.js';
import { CSV_SETTINGS, JSON_SETTINGS, POSTGRES_SETTINGS } from '../../../src/core/data/settings.js';
import type { SettingDecl } from '../../../src/core/spec/model.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
/** The accessor: the one module that reads a block's raw settings by a declared name. */
const ACCESSOR = path.join(REPO, 'src/core/spec/settings.ts');

/** `scope name` of every declaration of the engine and the built-in families. */
function declared(): Set<string> {
    const decls: SettingDecl[] = [
        ...PROBE_SETTINGS.decls,
        ...SUITE_SETTINGS.decls,
        ...RUN_SUITE_SETTINGS.decls,
        ...MODEL_SETTINGS.decls,
        ...CSV_SETTINGS.decls,
        ...JSON_SETTINGS.decls,
        ...POSTGRES_SETTINGS.decls,
        ...Object.values(BUILTIN_FAMILIES).flatMap(f => f.core.settings),
    ];
    return new Set(decls.map(d => `${d.scope} ${d.name}`));
}

interface Reads {
    typed: Set<string>;
    raw: string[];
}

/** The typed reads (`scope name`) and the raw ones (file:line text) in src/. */
function reads(): Reads {
    const config = ts.getParsedCommandLineOfConfigFile(
        path.join(REPO, 'tsconfig.json'),
        {},
        {
            ...ts.sys,
            onUnRecoverableConfigFileDiagnostic: d => {
                throw new Error(String(d.messageText));
            },
        },
    )!;
    const roots = config.fileNames.filter(
        f => f.startsWith(path.join(REPO, 'src') + path.sep) && !f.includes(`${path.sep}generated${path.sep}`),
    );
    const program = ts.createProgram(roots, config.options);
    const checker = program.getTypeChecker();
    const out: Reads = { typed: new Set(), raw: [] };
    /** The scope of a typed view (its `$settings` literal), or undefined for any other type. */
    const viewScope = (type: ts.Type): string | undefined => {
        const brand = type.getProperty('$settings');
        if (!brand) return undefined;
        const t = checker.getTypeOfSymbol(brand);
        return t.isStringLiteral() ? t.value : undefined;
    };
    /** A block's raw settings: the spec's `Settings` record. */
    const isRaw = (type: ts.Type) =>
        type.aliasSymbol?.name === 'Settings' &&
        type.aliasSymbol.declarations?.some(d => d.getSourceFile().fileName.endsWith(path.join('spec', 'model.ts')));
    const where = (n: ts.Node) => {
        const sf = n.getSourceFile();
        return `${path.relative(REPO, sf.fileName)}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1} ${n.getText()}`;
    };
    const written = (n: ts.Node) =>
        ts.isBinaryExpression(n.parent) && n.parent.left === n && n.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
    for (const sf of program.getSourceFiles()) {
        if (!roots.includes(sf.fileName)) continue;
        // Only files that can hold a read: a typed view comes from a table's `read`, raw settings from a `.settings` or a `Settings`.
        const text = sf.text;
        if (!/\.read\(|settings|Settings/.test(text)) continue;
        const visit = (n: ts.Node): void => {
            if (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) {
                const type = checker.getTypeAtLocation(n.expression);
                const scope = viewScope(type);
                if (scope !== undefined && ts.isPropertyAccessExpression(n) && !n.name.text.startsWith('$'))
                    out.typed.add(`${scope} ${n.name.text}`);
                else if (scope !== undefined && ts.isElementAccessExpression(n)) out.raw.push(where(n));
                else if (sf.fileName !== ACCESSOR && !written(n) && isRaw(type)) out.raw.push(where(n));
            } else if ((ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) && sf.fileName !== ACCESSOR) {
                // A cast of raw settings or of a typed view (`probe.settings as any`) would hide a read by any name.
                const type = checker.getTypeAtLocation(n.expression);
                if (isRaw(type) || viewScope(type) !== undefined) out.raw.push(where(n));
            } else if (ts.isVariableDeclaration(n) && n.initializer && ts.isObjectBindingPattern(n.name)) {
                const scope = viewScope(checker.getTypeAtLocation(n.initializer));
                if (scope !== undefined) {
                    for (const el of n.name.elements) out.typed.add(`${scope} ${(el.propertyName ?? el.name).getText()}`);
                } else if (sf.fileName !== ACCESSOR && isRaw(checker.getTypeAtLocation(n.initializer))) out.raw.push(where(n));
            }
            ts.forEachChild(n, visit);
        };
        visit(sf);
    }
    return out;
}

describe('settings are read through their declarations', () => {
    let found: Reads;
    before(() => {
        found = reads();
    });

    it('every declared setting has a reader', () => {
        const unread = [...declared()].filter(d => !found.typed.has(d));
        assert.deepEqual(
            unread,
            [],
            'declared, validated and documented, but nothing reads them: read them or remove them (with a located setting-place error)',
        );
    });

    it('every read names a declared setting', () => {
        const all = declared();
        assert.deepEqual(
            [...found.typed].filter(r => !all.has(r)),
            [],
        );
        assert.ok(found.typed.size > 60, `found ${found.typed.size} typed reads`);
    });

    it("no code reads a block's raw settings by a name", () => {
        assert.deepEqual(found.raw, [], 'read through the declaring table: TABLE.read(block.settings).name');
    });
});
