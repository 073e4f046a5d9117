/**
 * Reads the answer logs published with ERBench (DILAB-KAIST/ERBench), so answers users already collected can
 * be replayed and verified. Two layouts exist:
 *
 *   gpt35_movie.log                      gpt35_validate_movie.log
 *   0-1th question                       0th question
 *   Q: <question>                        Q: <question>
 *   A:<answer, may span lines>           A:<answer, may span lines and contain blank lines>
 *   Gold Answer: no                      (no gold lines: the next header ends the answer)
 *   Gold Entity: Avatar
 *
 * The log is untrusted text: a damaged record is skipped, never fatal.
 */

export interface ErbenchLogRecord {
    /** The entity (row) index N of "N-Kth question". */
    row: number;
    /** K: 0 basic, 1 negated, 2 "is it true that there is"; 0 for the knowledge-probe log. */
    phrasing: number;
    question: string;
    answer: string;
    /** 'yes' / 'no' as written, lower-cased; '' when the log has no gold lines. */
    gold: string;
    goldEntity: string;
}

const HEADER = /^(\d+)(?:-(\d+))?th question\s*$/;

export function parseErbenchLog(text: string): ErbenchLogRecord[] {
    const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    const out: ErbenchLogRecord[] = [];
    let current: ErbenchLogRecord | undefined;
    // Which field the next plain line continues: answers and questions may wrap over several lines.
    let field: 'question' | 'answer' | 'done' = 'done';

    const finish = () => {
        if (current) {
            current.question = current.question.trim();
            current.answer = current.answer.trim();
            if (current.question !== '') out.push(current);
        }
        current = undefined;
        field = 'done';
    };

    for (const line of lines) {
        const header = HEADER.exec(line);
        if (header) {
            finish();
            current = {
                row: Number(header[1]), phrasing: header[2] === undefined ? 0 : Number(header[2]),
                question: '', answer: '', gold: '', goldEntity: '',
            };
            continue;
        }
        if (!current) continue;
        if (field !== 'answer' && line.startsWith('Q:')) { current.question = line.slice(2).trim(); field = 'question'; continue; }
        if (field !== 'answer' && current.answer === '' && line.startsWith('A:')) { current.answer = line.slice(2); field = 'answer'; continue; }
        if (line.startsWith('Gold Answer:')) { current.gold = line.slice('Gold Answer:'.length).trim().toLowerCase(); field = 'done'; continue; }
        if (line.startsWith('Gold Entity:')) { current.goldEntity = line.slice('Gold Entity:'.length).trim(); field = 'done'; continue; }
        if (field === 'question') current.question += ' ' + line.trim();
        else if (field === 'answer') current.answer += '\n' + line;
    }
    finish();
    return out;
}
