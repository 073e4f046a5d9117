/**
 * The language client's log, with every saved database password blotted out. The passwords travel to the
 * server in the `initialize` request and the `halluprobe/databasePasswords` notification, and the client traces
 * every message into its log channel when that channel's level is Trace (Output view → Set Log Level). This
 * wraps the HalluProbe channel for the client: same channel, same level, but no password in what it writes.
 * Type-only `vscode` import: the tests pass a fake channel.
 */
import type { LogOutputChannel } from 'vscode';

const HIDDEN = '••••••';

/** `text` with each secret, as written and as it appears inside JSON, replaced by a mark. */
export function redact(text: string, secrets: readonly string[]): string {
    let out = text;
    for (const secret of secrets) {
        if (secret === '') continue;
        for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1)])) out = out.split(form).join(HIDDEN);
    }
    return out;
}

/** `channel` seen through redaction of `secrets()` (read at each write, so a password saved later is hidden too). */
export function redactingLog(channel: LogOutputChannel, secrets: () => readonly string[]): LogOutputChannel {
    const hide = (value: string) => redact(value, secrets());
    const hideAll = (args: unknown[]) => args.map(a => (typeof a === 'string' ? hide(a) : a));
    return {
        get name() {
            return channel.name;
        },
        get logLevel() {
            return channel.logLevel;
        },
        onDidChangeLogLevel: channel.onDidChangeLogLevel,
        trace: (message, ...args) => channel.trace(hide(message), ...hideAll(args)),
        debug: (message, ...args) => channel.debug(hide(message), ...hideAll(args)),
        info: (message, ...args) => channel.info(hide(message), ...hideAll(args)),
        warn: (message, ...args) => channel.warn(hide(message), ...hideAll(args)),
        error: (error, ...args) => channel.error(typeof error === 'string' ? hide(error) : error, ...hideAll(args)),
        append: value => channel.append(hide(value)),
        appendLine: value => channel.appendLine(hide(value)),
        replace: value => channel.replace(hide(value)),
        clear: () => channel.clear(),
        show: ((column?: unknown, preserveFocus?: boolean) =>
            channel.show(column as never, preserveFocus)) as LogOutputChannel['show'],
        hide: () => channel.hide(),
        // The channel belongs to the extension (it outlives a server restart): the client must not dispose it.
        dispose: () => undefined,
    };
}
