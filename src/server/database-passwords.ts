/**
 * The database passwords the editor saved (SecretStorage), handed to the engine's registry: sources whose URL
 * names one of these databases connect with its password (after `password_env`, before PGPASSWORD). A client
 * that sends none (another editor, the CLI's tests) leaves the environment as the only source.
 */
import { useSavedPasswords } from '../core/data/index.js';
import type { DatabasePasswordsParams } from '../protocol/lsp.js';

export function useClientPasswords(params: DatabasePasswordsParams | undefined): void {
    const passwords = new Map(
        Object.entries(params?.passwords ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    useSavedPasswords(id => passwords.get(id));
}
