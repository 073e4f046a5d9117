/** RFC 4180 rows (quoted fields with commas and doubled quotes), for tests reading a CSV the CLI wrote. */
export function csvRows(text: string): string[][] {
    const rows: string[][] = [];
    let row: string[] = [],
        field = '',
        quoted = false;
    for (let i = 0; i < text.length; i++) {
        const c = text[i]!;
        if (quoted) {
            if (c === '"' && text[i + 1] === '"') {
                field += '"';
                i++;
            } else if (c === '"') quoted = false;
            else field += c;
        } else if (c === '"') quoted = true;
        else if (c === ',') {
            row.push(field);
            field = '';
        } else if (c === '\n') {
            row.push(field);
            rows.push(row);
            row = [];
            field = '';
        } else field += c;
    }
    return rows;
}
