/**
 * Text from data or a model, made safe to print on a terminal: control characters (ESC sequences that set
 * colours or the window title, clear the screen, move the cursor; C1 controls; carriage returns that overwrite
 * a line; bidirectional overrides that reorder what is shown) are written as visible escapes (`\x1b`).
 * Newlines and tabs stay. The one helper every face uses wherever it prints such text.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function escapeTerminal(text: string): string {
    return text.replace(UNSAFE, c => {
        const code = c.charCodeAt(0);
        return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    });
}
