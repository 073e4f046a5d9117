/**
 * Settings declared once, read through their declaration. A room declares the settings it reads with
 * `declareSettings(scope, { name: { type, default, values, doc } })`; the language checks and completes values
 * from `table.decls` (src/core/language/validation/settings.ts, through the catalogue in
 * src/core/spec/setting-catalogue.ts), docs/language.md's tables are written from them, and the room reads a
 * block's values with `table.read(block.settings)`: an object typed from the declarations (a text setting with
 * allowed values reads as their union, one with a default is never undefined), so no code reads a setting by a
 * name the compiler does not know. test/unit/repo/settings-read.test.ts checks that every declaration has a reader
 * and that nothing reads the raw `Settings` by name.
 */
import type { SettingDecl, SettingValue, Settings } from './model.js';

/** A declaration as written in a table: its name is the key, its scope the table's. */
export type SettingSpec = Omit<SettingDecl, 'name' | 'scope'>;

type Scalar<D> = D extends { type: 'boolean' }
    ? boolean
    : D extends { type: 'text'; values: readonly (infer V)[] }
      ? V
      : D extends { type: 'text' }
        ? string
        : number;
type ValueOf<D> = D extends { list: true } ? Scalar<D>[] : Scalar<D>;

/**
 * A block's settings as its room reads them: one typed field per declaration; `$settings` names the table; `$unfit`
 * holds the values written that do not fit their declaration (the spec check reports them; a room that generates
 * from an unchecked spec may report them too), which read as unset.
 */
type SettingsView<T extends Record<string, SettingSpec>, S extends string = string> = {
    readonly [K in keyof T]: ValueOf<T[K]> | (T[K] extends { default: SettingValue } ? never : undefined);
} & { readonly $settings: S; readonly $unfit: { readonly [K in keyof T]?: SettingValue } };

export interface SettingTable<T extends Record<string, SettingSpec>, S extends string = string> {
    readonly scope: S;
    /** The declarations, in order (validation, completion, hover, docs). */
    readonly decls: readonly SettingDecl[];
    /** A block's values, coerced to their declared types, defaults filled in; a value that does not fit reads as unset. */
    read(settings: Settings | undefined): SettingsView<T, S>;
}

/** Declares the settings of one block (`scope`): the one place their name, type, default, values and doc are written. */
export function declareSettings<const S extends string, const T extends Record<string, SettingSpec>>(
    scope: S,
    specs: T,
): SettingTable<T, S> {
    const decls: SettingDecl[] = Object.entries(specs).map(([name, spec]) => ({ name, scope, ...spec }));
    return {
        scope,
        decls,
        read: settings =>
            ({ ...readDeclared(decls, settings), $settings: scope, $unfit: unfit(decls, settings) }) as unknown as SettingsView<
                T,
                S
            >,
    };
}

/**
 * The values of declarations known only at run time (a family's list, the families' simulator rates), by name:
 * the same coercion as a table's `read`.
 */
export function readDeclared(
    decls: readonly SettingDecl[],
    settings: Settings | undefined,
): Record<string, SettingValue | undefined> {
    const out: Record<string, SettingValue | undefined> = {};
    for (const d of decls) {
        const raw = settings && Object.hasOwn(settings, d.name) ? settings[d.name] : undefined;
        const v = raw === undefined ? undefined : coerce(d, raw);
        out[d.name] = v ?? d.default;
    }
    return out;
}

/** The values written that do not fit their declaration, by name. */
function unfit(decls: readonly SettingDecl[], settings: Settings | undefined): Record<string, SettingValue> {
    const out: Record<string, SettingValue> = {};
    for (const d of decls)
        if (settings && Object.hasOwn(settings, d.name) && coerce(d, settings[d.name]!) === undefined)
            out[d.name] = settings[d.name]!;
    return out;
}

/** A value as its declaration types it; undefined when it does not fit (the spec check has said so already). */
function coerce(d: SettingDecl, raw: SettingValue): SettingValue | undefined {
    if (d.list) {
        const items = (Array.isArray(raw) ? raw : [raw]).map(v => (Array.isArray(v) ? undefined : scalar(d, v)));
        return items.every(v => v !== undefined) ? (items as SettingValue[]) : undefined;
    }
    return Array.isArray(raw) ? undefined : scalar(d, raw);
}

function scalar(d: SettingDecl, v: string | number | boolean): string | number | boolean | undefined {
    switch (d.type) {
        case 'boolean':
            return v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined;
        case 'text': {
            if (v === false && d.off !== undefined) return d.off;
            const text = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
            return text !== undefined && (!d.values || d.values.includes(text)) ? text : undefined;
        }
        default: {
            if (typeof v === 'string' && d.named && Object.hasOwn(d.named, v)) return d.named[v];
            const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
            return Number.isFinite(n) && (d.type === 'number' || Number.isInteger(n)) ? n : undefined;
        }
    }
}

/**
 * `own` with the values `outer` gives for these declarations where `own` has none: a suite's model settings under
 * each model's own (the model's value wins).
 */
export function inheritSettings(decls: readonly SettingDecl[], outer: Settings | undefined, own: Settings): Settings {
    const inherited: Settings = {};
    for (const d of decls)
        if (outer && Object.hasOwn(outer, d.name) && !Object.hasOwn(own, d.name)) inherited[d.name] = outer[d.name]!;
    return Object.keys(inherited).length ? { ...inherited, ...own } : own;
}
