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

/** Two of James Cameron's films, with Steven Spielberg as the director the data does not credit. */
export const CAMERON_NODES: ContextNode[] = [
    contextNode('Movie(Avatar)', 'Avatar', 'Movie', true),
    contextNode('Movie(Titanic)', 'Titanic', 'Movie', true),
    contextNode('Director(James Cameron)', 'James Cameron', 'Director', true),
    contextNode('Director(Steven Spielberg)', 'Steven Spielberg', 'Director', true),
    contextNode('Movie.year=2009', '2009', 'Movie.year', false),
    contextNode('Movie.year=1997', '1997', 'Movie.year', false),
];
export const CAMERON_FACTS = [
    { head: 'Movie(Avatar)', relation: 'directed_by', tail: 'Director(James Cameron)' },
    { head: 'Movie(Avatar)', relation: 'Movie.year', tail: 'Movie.year=2009' },
    { head: 'Movie(Titanic)', relation: 'directed_by', tail: 'Director(James Cameron)' },
    { head: 'Movie(Titanic)', relation: 'Movie.year', tail: 'Movie.year=1997' },
];
