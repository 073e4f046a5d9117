/**
 * The declared schema of a PostgreSQL database — tables of the user's schemas, column types, primary keys,
 * unique constraints and foreign keys (composite ones in constraint order) — from pg_catalog. Here because
 * SQL stays in the source readers; `src/core/schema/import.ts` turns it into a spec.
 */
import type { ScalarType } from '../spec/model.js';
import type { DeclaredTable } from './sqlite-schema.js';
import { connect, pgClient } from './postgres.js';

/** A PostgreSQL type name (format_type) as a spec type; arrays and unknown types read as text. */
function postgresScalar(type: string): ScalarType {
    const t = type.toLowerCase();
    if (t.endsWith('[]')) return 'text';
    if (/^(smallint|integer|bigint|smallserial|serial|bigserial)$/.test(t)) return 'int';
    if (/^(real|double precision|numeric|decimal)/.test(t)) return 'real';
    if (t === 'boolean') return 'bool';
    if (t === 'date') return 'date';
    return 'text';
}

interface ColumnRow {
    schema: string;
    table: string;
    column: string;
    type: string;
    not_null: boolean;
}
interface ConstraintRow {
    schema: string;
    table: string;
    kind: 'p' | 'u' | 'f';
    columns: string[];
    ref_schema: string | null;
    ref_table: string | null;
    ref_columns: string[] | null;
}

const COLUMNS = `
SELECT n.nspname AS schema, c.relname AS "table", a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
WHERE c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
  AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'
ORDER BY n.nspname, c.relname, a.attnum`;

// Columns of a constraint in the constraint's own order (conkey is ordered), matched to confkey pairwise.
const CONSTRAINTS = `
SELECT n.nspname AS schema, c.relname AS "table", k.contype AS kind,
  ARRAY(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY AS u(attnum, i) JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum ORDER BY u.i)::text[] AS columns,
  rn.nspname AS ref_schema, rc.relname AS ref_table,
  CASE WHEN k.contype = 'f' THEN ARRAY(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY AS u(attnum, i) JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.attnum ORDER BY u.i)::text[] END AS ref_columns
FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_class rc ON rc.oid = k.confrelid LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
WHERE k.contype IN ('p', 'u', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
ORDER BY n.nspname, c.relname, k.contype, k.conname`;

/** A table's name as the spec's `table "…"` writes it: bare in `public`, `schema.table` elsewhere. */
const qualified = (schema: string, table: string) => (schema === 'public' ? table : `${schema}.${table}`);

/** Every table of the database's user schemas, or an Error saying why it cannot be read. */
export async function readPostgresSchema(url: string, settings: Record<string, string> = {}): Promise<DeclaredTable[] | Error> {
    const client = await connect({ path: url, settings });
    if (!(client instanceof pgClient())) return new Error(client.message);
    try {
        const columns = (await client.query<ColumnRow>(COLUMNS)).rows;
        const constraints = (await client.query<ConstraintRow>(CONSTRAINTS)).rows;
        const tables = new Map<string, DeclaredTable>();
        for (const c of columns) {
            const name = qualified(c.schema, c.table);
            let table = tables.get(name);
            if (!table) {
                table = { name, columns: [], keys: [], foreignKeys: [], rowCount: 0 };
                tables.set(name, table);
            }
            table.columns.push({ name: c.column, type: postgresScalar(c.type), declared: c.type, notNull: c.not_null });
        }
        // Primary keys sort before unique constraints ('p' < 'u'), so a table's first key is its primary key.
        for (const k of constraints) {
            const table = tables.get(qualified(k.schema, k.table));
            if (!table) continue;
            if (k.kind === 'f')
                table.foreignKeys.push({
                    columns: k.columns,
                    table: qualified(k.ref_schema!, k.ref_table!),
                    refColumns: k.ref_columns!,
                });
            else if (!table.keys.some(key => key.join('\u0000') === k.columns.join('\u0000'))) table.keys.push(k.columns);
        }
        for (const table of tables.values()) {
            const [schema, name] = table.name.includes('.')
                ? (table.name.split('.', 2) as [string, string])
                : ['public', table.name];
            const count = await client.query<{ n: string }>(
                `SELECT count(*)::text AS n FROM "${schema.replace(/"/g, '""')}"."${name.replace(/"/g, '""')}"`,
            );
            table.rowCount = Number(count.rows[0]!.n);
        }
        return [...tables.values()];
    } catch (e) {
        return new Error(`could not read the schema: ${(e as Error).message}`);
    } finally {
        await client.end().catch(() => undefined);
    }
}
