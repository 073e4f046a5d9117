import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LogOutputChannel } from 'vscode';
import { redact, redactingLog } from '../../../src/extension/redacting-channel.js';

test("the client's log never shows a saved database password, however it is quoted", () => {
    const written: string[] = [];
    const record = (...parts: unknown[]) => {
        written.push(parts.map(String).join(' '));
    };
    const fake = {
        name: 'HalluProbe',
        logLevel: 1,
        onDidChangeLogLevel: () => ({ dispose() {} }),
        trace: record,
        debug: record,
        info: record,
        warn: record,
        error: record,
        append: record,
        appendLine: record,
        replace: record,
        clear: () => undefined,
        show: () => undefined,
        hide: () => undefined,
        dispose: () => {
            written.push('DISPOSED');
        },
    } as unknown as LogOutputChannel;
    const secrets = ['s3cr"et\\pw'];
    const log = redactingLog(fake, () => secrets);
    // What vscode-languageclient traces for the notification at log level Trace: the params as JSON.
    const params = JSON.stringify({ passwords: { 'me@db:5432/hr': secrets[0] } }, null, 4);
    log.trace(`Sending notification 'halluprobe/databasePasswords'.\nParams: ${params}`);
    log.appendLine(`raw ${secrets[0]} end`);
    secrets.push('later-saved');
    log.info('Params: {"databasePasswords":{"passwords":{"a":"later-saved"}}}', 'and later-saved again');
    log.error(`failed with ${secrets[0]}`);
    log.dispose();
    const all = written.join('\n');
    assert.doesNotMatch(all, /s3cr|later-saved/);
    assert.match(all, /"me@db:5432\/hr": "••••••"/);
    assert.match(all, /raw •••••• end/);
    assert.doesNotMatch(all, /DISPOSED/, "the extension's channel outlives the client");
    assert.equal(log.name, 'HalluProbe');
    assert.equal(log.logLevel, 1);
    assert.equal(redact('nothing secret', ['']), 'nothing secret');
});
