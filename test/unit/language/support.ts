/** Shared by the language tests: in-memory services (no file system, no data) and a small movie spec. */
import { EmptyFileSystem, type LangiumDocument } from 'langium';
import { parseHelper } from 'langium/test';
import type { Diagnostic } from 'vscode-languageserver-types';
import { createProbeServerServices } from '../../../src/server/module.js';

export const { shared, probe: services } = createProbeServerServices(EmptyFileSystem);
const parse = parseHelper(services);
let next = 0;

/** Parses, links and validates `text` as a new in-memory document. */
export async function parseSpec(text: string, uri = `file:///mem/spec${next++}.probe`): Promise<LangiumDocument> {
    return parse(text, { documentUri: uri, validation: true });
}

export async function diagnose(text: string, uri?: string): Promise<Diagnostic[]> {
    return (await parseSpec(text, uri)).diagnostics ?? [];
}

/** The text a diagnostic's range covers. */
export function covered(doc: LangiumDocument, d: Diagnostic): string {
    return doc.textDocument.getText(d.range);
}

export const MOVIE = `// a movie database
source movies csv "data/movies.csv"

relation Movie from movies label "movie" {
    title: text = "common_entity"
    year: int = "entity3"
    director: text = "entity2"
    star: text = "entity1"
    genres: list<text> = "genres"
    key (title, year)
}

relation Director from movies distinct {
    name: text = "entity2"
    birth_year: int = "entity4"
    key (name)
}

fd Movie: director, star, year -> title as movie_title
fd Movie: title, year -> director, star as movie_facts
fd Director: name -> birth_year as director_birth
fk Movie.director -> Director.name as directed_by

aliases Director.name {
    name_parts
}

probe movie_binary binary using movie_title {
    basic "Is there a movie, released in {year}, starring {star} where {director} is the director?"
    negated "Is it true that there are no movies, released in {year}, starring {star} where {director} is the director?"
}

probe director_decade path along Movie.director -> Director.birth_year {
    basic "Was the director of {title} ({year}) born in the {decade(birth_year)}s?"
}

probe know_movie knows about Movie {
    ask "Do you know about the movie {title} released in {year}?"
}

model simulator offline {
    knowledge 0.8
}

suite movies {
    probes movie_binary, director_decade
    models simulator
    sample all
    variant zero_shot
}
`;
