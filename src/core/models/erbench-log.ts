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
 * The multiple-choice logs (gpt35_mc_movie_choice_3.log, gpt35_mc_validate_movie.log) use a third layout, read
 * by `parseErbenchChoiceLog`: blocks separated by a line of '=', each `N-Kth question` followed by tagged fields
 *
 *   <Question>                            <Answer>
 *   Q: What's the inaccurate option …      Option 3: Has the genre of animation movie. …
 *   Option 1: Directed by James Cameron.  <Gold Answer>
 *   …                                     3            (the falsified option; "None" in the knowledge log)
 *   A:                                    <Gold Entity>
 *                                         non-animation (the falsified option's true value)
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

/** The record a header line (`12-3th question`) starts: its row and phrasing, nothing read yet. */
function startRecord(header: RegExpExecArray): ErbenchLogRecord {
    return {
        row: Number(header[1]),
        phrasing: header[2] === undefined ? 0 : Number(header[2]),
        question: '',
        answer: '',
        gold: '',
        goldEntity: '',
    };
}

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
            current = startRecord(header);
            continue;
        }
        if (!current) continue;
        if (field !== 'answer' && line.startsWith('Q:')) {
            current.question = line.slice(2).trim();
            field = 'question';
            continue;
        }
        if (field !== 'answer' && current.answer === '' && line.startsWith('A:')) {
            current.answer = line.slice(2);
            field = 'answer';
            continue;
        }
        if (line.startsWith('Gold Answer:')) {
            current.gold = line.slice('Gold Answer:'.length).trim().toLowerCase();
            field = 'done';
            continue;
        }
        if (line.startsWith('Gold Entity:')) {
            current.goldEntity = line.slice('Gold Entity:'.length).trim();
            field = 'done';
            continue;
        }
        if (field === 'question') current.question += ' ' + line.trim();
        else if (field === 'answer') current.answer += '\n' + line;
    }
    finish();
    return out;
}

/** The tagged layout of the multiple-choice logs (see the file comment). */
export function isChoiceLog(text: string): boolean {
    return /^<Question>\s*$/m.test(text.slice(0, 20000));
}

const TAG = /^<(Question|Answer|Gold Answer|Gold Entity)>\s*$/;

/**
 * Reads a multiple-choice log. `question` is the prompt as logged ("Q: <stem> Provide an explanation.\nOption 1: …\nA:"),
 * `answer` the response, `gold` the falsified option's number as written ('' or 'none' when there is none).
 */
export function parseErbenchChoiceLog(text: string): ErbenchLogRecord[] {
    const out: ErbenchLogRecord[] = [];
    let current: ErbenchLogRecord | undefined;
    let field: 'question' | 'answer' | 'gold' | 'goldEntity' | undefined;
    const finish = () => {
        if (current) {
            current.question = current.question.trim();
            current.answer = current.answer.trim();
            current.gold = current.gold.trim().toLowerCase();
            current.goldEntity = current.goldEntity.trim();
            if (current.question !== '') out.push(current);
        }
        current = undefined;
        field = undefined;
    };
    for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
        const header = HEADER.exec(line);
        if (header) {
            finish();
            current = startRecord(header);
            continue;
        }
        if (/^={5,}\s*$/.test(line)) {
            finish();
            continue;
        }
        if (!current) continue;
        const tag = TAG.exec(line);
        if (tag) {
            field =
                tag[1] === 'Question'
                    ? 'question'
                    : tag[1] === 'Answer'
                      ? 'answer'
                      : tag[1] === 'Gold Answer'
                        ? 'gold'
                        : 'goldEntity';
            continue;
        }
        if (field) current[field] += (current[field] === '' ? '' : '\n') + line;
    }
    finish();
    return out;
}

/** The options of a logged multiple-choice prompt, in order ("Option 1: …" lines). */
export function loggedOptions(question: string): string[] {
    return [...question.matchAll(/^Option (\d+): ?(.*)$/gm)].map(m => m[2]!.trim());
}

/** The stem of a logged multiple-choice prompt: the "Q:" line without "Provide an explanation.". */
export function loggedStem(question: string): string {
    const q = /^Q: ?(.*)$/m.exec(question)?.[1] ?? '';
    return q.replace(/\s*Provide an explanation\.?\s*$/, '').trim();
}
