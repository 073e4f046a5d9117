/**
 * FDs to offer on a relation in the editor: what `discoverFds` finds on the relation's loaded rows, minus what
 * the spec already declares (or what follows from a declared FD with a smaller left-hand side), minus key-like
 * left-hand sides (every group is one row: the questions would be trivial). Each comes with the declaration
 * text and the evidence the editor shows; the language server only renders them as code actions.
 */
import type { RelationTable } from '../data/types.js';
import type { SpecModel } from '../spec/model.js';
import { discoverFdsAsync, type DiscoveredFd, type FdDiscovery, type FdDiscoveryOptions } from './discover.js';
import { fdEvidence } from './spec-text.js';

interface FdSuggestion {
    /** `add fd Movie: title, year -> director (holds on 99.8 % of rows, 1,204 groups)` */
    title: string;
    /** The declaration to insert on a line of its own. */
    text: string;
    fd: DiscoveredFd;
}

export interface FdSuggestions {
    suggestions: FdSuggestion[];
    /** False when the time budget cut discovery short (the list may miss some). */
    complete: boolean;
}

/** An editor waits for a code action: a short budget, exact FDs and approximate ones up to 1 % of rows. */
const EDITOR_FD_OPTIONS: FdDiscoveryOptions = { maxLhs: 3, maxError: 0.01, budgetMs: 2_000 };
const MAX_SUGGESTIONS = 8;

// One discovery per loaded table, shared by the requests that wait for it: the data cache hands out the same
// table object until the data changes. It runs in slices (discoverFdsAsync), so the server keeps answering.
const discovered = new WeakMap<RelationTable, Promise<FdDiscovery>>();

export async function suggestFds(spec: SpecModel, relation: string, table: RelationTable): Promise<FdSuggestions> {
    let pending = discovered.get(table);
    if (!pending) {
        pending = discoverFdsAsync(table, EDITOR_FD_OPTIONS);
        discovered.set(table, pending);
    }
    const found = await pending;
    const declared = spec.fds.filter(fd => fd.relation === relation);
    const implied = (fd: DiscoveredFd) => declared.some(d => d.rhs.includes(fd.rhs) && d.lhs.every(a => fd.lhs.includes(a)));
    const suggestions = found.fds
        .filter(fd => !fd.keyLike && fd.lhs.length > 0 && !implied(fd))
        .slice(0, MAX_SUGGESTIONS)
        .map(fd => {
            const text = `fd ${relation}: ${fd.lhs.join(', ')} -> ${fd.rhs}`;
            const nearKey = fd.nearKey ? '; the left-hand side is almost a key' : '';
            return { title: `add ${text} (${fdEvidence(fd)}${nearKey})`, text, fd };
        });
    return { suggestions, complete: found.complete };
}
