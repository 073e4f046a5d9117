/**
 * A Test Explorer item handed to a command (its context menu, or the gutter mark of a failed question in the
 * editor) as the {file, questionId} the graph command takes. Pure: no VS Code import.
 */
import { parseNodeId } from './tree.js';

const QUESTION_ID = /^[0-9a-f]{16}$/;

/** The spec file and, for a question item, its question id; undefined when `arg` is not a HalluProbe test item. */
export function graphArgOfTestItem(arg: unknown): { file: string; questionId?: string } | undefined {
    const id = typeof arg === 'object' && arg !== null ? (arg as { id?: unknown }).id : undefined;
    if (typeof id !== 'string') return undefined;
    const parts = parseNodeId(id);
    if (!parts[0]?.endsWith('.probe')) return undefined;
    const last = parts.at(-1)!;
    return parts.length > 1 && QUESTION_ID.test(last) ? { file: parts[0], questionId: last } : { file: parts[0] };
}
