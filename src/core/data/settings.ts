/**
 * The settings of a `source` block, per format, read by the readers of that format (csv.ts, load.ts,
 * postgres.ts). A `jsonl` source reads json's; an `sqlite` source has none.
 */
import type { SettingDecl } from '../spec/model.js';
import { declareSettings } from '../spec/settings.js';

const listSeparator = { type: 'text', default: ',', doc: 'How the items of a `list<…>` cell are separated.' } as const;

export const CSV_SETTINGS = declareSettings('source csv', {
    delimiter: { type: 'text', default: ',', doc: 'The field separator; "\\t" or tab for tab-separated files.' },
    quote: { type: 'text', off: '', default: '"', doc: 'The quote character; "" or false for none.' },
    header: {
        type: 'boolean',
        default: true,
        doc: 'The first row names the columns; with header false columns are named "1", "2", ….',
    },
    encoding: { type: 'text', default: 'utf-8', doc: 'Also latin1 (iso-8859-1), windows-1252, utf-16.' },
    list_separator: listSeparator,
});

export const JSON_SETTINGS = declareSettings('source json', { list_separator: listSeparator });

export const POSTGRES_SETTINGS = declareSettings('source postgres', {
    password_env: {
        type: 'text',
        doc: 'The environment variable that holds the password (default: a password the editor saved, PGPASSWORD, ~/.pgpass).',
    },
    statement_timeout: { type: 'integer', min: 1, default: 60_000, doc: 'The server ends a statement running longer (ms).' },
    version_column: { type: 'text', doc: "A column whose maximum says the table changed (default: the rows' xmin)." },
});

/** The settings table a source of this format reads (jsonl shares json's; sqlite reads none). */
export function sourceSettingsTable(format: string): { readonly decls: readonly SettingDecl[] } {
    if (format === 'sqlite') return { decls: [] };
    if (format === 'postgres') return POSTGRES_SETTINGS;
    return format === 'json' || format === 'jsonl' ? JSON_SETTINGS : CSV_SETTINGS;
}
