/**
 * A large spec and its data, as the editor benchmarks and tests use them: blocks of two relations over one movie
 * CSV, two FDs, an fk and a binary probe, repeated to the lines asked for; and the CSV (directors direct ~13
 * movies each; a director's birth year is a function of the director).
 */
import * as fs from 'node:fs';

export function largeSpecBlock(i: number): string {
    return `
relation Movie${i} from movies label "movie" {
    title: text
    year: int
    director: text
    star: text
    key (title, year)
}

relation Director${i} from movies distinct {
    name: text = "director"
    birth_year: int
    key (name)
}

fd Movie${i}: title, year -> director as movie_director${i}
fd Director${i}: name -> birth_year as director_birth${i}
fk Movie${i}.director -> Director${i}.name

probe binary${i} binary using movie_director${i} {
    basic "Is {director} the director of {title} ({year})?"
    negated "Is it true that {director} did not direct {title} ({year})?"
}
`;
}

/** At least `lines` lines: a source, `head` (e.g. a model), then blocks. */
export function largeSpec(lines: number, head = ''): string {
    let text = `source movies csv "movies.csv"\n${head}`;
    for (let i = 0; text.split('\n').length < lines; i++) text += largeSpecBlock(i);
    return text;
}

/** The movie CSV the large spec reads, `rows` rows. */
export function writeLargeCsv(file: string, rows: number): void {
    const lines = ['id,title,year,director,star,birth_year'];
    for (let i = 0; i < rows; i++) {
        const d = i % 1_500;
        lines.push(`${i},Movie ${i},${1950 + (i % 70)}.0,Director ${d},Star ${i % 4_000},${1900 + (d % 90)}`);
    }
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
}
