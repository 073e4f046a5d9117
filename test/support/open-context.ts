/** The open family's context as its unit tests build it: graph nodes and the movie example's relations. */
import type { ContextNode, StoredRelation } from '../../src/core/families/open/types.js';

/** A node of the retrieved context (every node equally ranked). */
export const contextNode = (id: string, label: string, type: string, entity: boolean, display?: string) =>
    ({ id, label, type, entity, ppr: 1, prize: 1, ...(display ? { display } : {}) }) as ContextNode;

export const DIRECTED_BY: StoredRelation = {
    name: 'directed_by',
    label: 'directed by',
    headType: 'Movie',
    tailType: 'Director',
    words: ['directed by', 'director', 'directed'],
};
export const MOVIE_STAR: StoredRelation = {
    name: 'Movie.star',
    label: 'star',
    headType: 'Movie',
    tailType: 'Movie.star',
    words: ['star'],
};
export const MOVIE_YEAR: StoredRelation = {
    name: 'Movie.year',
    label: 'release year',
    headType: 'Movie',
    tailType: 'Movie.year',
    words: ['year', 'released'],
};
