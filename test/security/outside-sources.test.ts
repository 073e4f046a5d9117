// Issue 11, "Also": in the editor, a data source outside the workspace folders is read only after the user allowed
// it when the workspace is untrusted or newly opened; the answer is remembered per workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sourceDecision, type SourceAccess } from '../../src/core/data/source-access.js';
import { SourceTrust, type SourceTrustHost } from '../../src/extension/source-trust.js';
import type { SourceDecl } from '../../src/core/spec/model.js';

const loc = { file: '/ws/spec.probe', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
const source = (p: string): SourceDecl => ({ name: 'x', format: 'csv', path: p, settings: {}, loc });
const access = (over: Partial<SourceAccess>): SourceAccess => ({
    folders: ['/ws'],
    trusted: true,
    newlyOpened: false,
    decisions: {},
    ...over,
});

test('the rule: inside the folders always; outside only when allowed, or trusted and opened before', () => {
    assert.equal(sourceDecision('/ws/data/movies.csv', access({ trusted: false, newlyOpened: true })), 'read');
    assert.equal(sourceDecision('/ws/../etc/shadow', access({})), 'read', 'trusted and opened before');
    assert.equal(sourceDecision('/etc/shadow', access({ trusted: false })), 'ask');
    assert.equal(sourceDecision('/etc/shadow', access({ newlyOpened: true })), 'ask');
    assert.equal(
        sourceDecision('/wsx/movies.csv', access({ newlyOpened: true })),
        'ask',
        'a sibling folder sharing the prefix is outside',
    );
    assert.equal(sourceDecision('/etc/shadow', access({ trusted: false, decisions: { '/etc/shadow': true } })), 'read');
    assert.equal(sourceDecision('/etc/shadow', access({ decisions: { '/etc/shadow': false } })), 'refuse');
    assert.equal(
        sourceDecision('/etc/shadow', access({ folders: [], trusted: false })),
        'ask',
        'no folder open: everything is outside',
    );
});

/** A fake workspace: memory as workspaceState keeps it, and the user's answers to the prompt. */
function host(over: Partial<SourceTrustHost> & { answers?: boolean[] } = {}) {
    const stored = new Map<string, unknown>();
    const asked: string[][] = [];
    const answers = over.answers ?? [];
    const h: SourceTrustHost = {
        folders: () => ['/ws'],
        trusted: () => false,
        memory: {
            get: <T>(k: string) => stored.get(k) as T | undefined,
            update: async (k, v) => {
                stored.set(k, v);
            },
        },
        ask: async files => {
            asked.push([...files]);
            return answers.shift() ?? false;
        },
        ...over,
    };
    return { h, asked, stored };
}

test('an untrusted workspace asks once about outside sources; a yes is remembered for the workspace', async () => {
    const { h, asked } = host({ answers: [true] });
    const trust = new SourceTrust(h);
    const sources = [source('/ws/movies.csv'), source('/etc/shadow'), source('/etc/shadow')];
    assert.deepEqual(await trust.confirm(sources), { ok: true });
    assert.deepEqual(asked, [['/etc/shadow']], 'one question, naming the outside file once; inside files are not asked about');
    assert.deepEqual(await trust.confirm(sources), { ok: true });
    // The next window on the same workspace (same workspaceState) remembers the yes.
    assert.deepEqual(await new SourceTrust(h).confirm(sources), { ok: true });
    assert.equal(asked.length, 1);
});

test('a no refuses the source for the session; a reload asks again', async () => {
    const { h, asked } = host({ answers: [false, true] });
    const trust = new SourceTrust(h);
    assert.deepEqual(await trust.confirm([source('/etc/shadow')]), { ok: false, refused: ['/etc/shadow'] });
    assert.deepEqual(await trust.confirm([source('/etc/shadow')]), { ok: false, refused: ['/etc/shadow'] });
    assert.equal(asked.length, 1, 'not asked again in the same session');
    assert.deepEqual(await new SourceTrust(h).confirm([source('/etc/shadow')]), { ok: true });
    assert.equal(asked.length, 2);
});

test('a trusted workspace asks only the first time it is opened', async () => {
    const { h, asked } = host({ trusted: () => true, answers: [true] });
    assert.deepEqual(await new SourceTrust(h).confirm([source('/data/shared.csv')]), { ok: true });
    assert.equal(asked.length, 1, 'newly opened: asked');
    const later = host({ trusted: () => true });
    await later.h.memory.update('halluprobe.workspaceSeen', true);
    assert.deepEqual(await new SourceTrust(later.h).confirm([source('/data/other.csv')]), { ok: true });
    assert.equal(later.asked.length, 0, 'trusted and opened before: read without asking');
});

test('a database URL (postgres source) is never inside the folders: asked about by its URL as written, never as a path', async () => {
    const url = 'postgres://me@db.example:5432/hr';
    assert.equal(sourceDecision(url, access({ trusted: false })), 'ask');
    assert.equal(sourceDecision(url, access({})), 'read', 'trusted and opened before');
    assert.equal(sourceDecision(url, access({ trusted: false, decisions: { [url]: true } })), 'read');
    const { h, asked } = host({ answers: [true] });
    assert.deepEqual(await new SourceTrust(h).confirm([{ ...source(url), format: 'postgres', table: 'staff' }]), { ok: true });
    assert.deepEqual(asked, [[url]]);
});

test('allowing a database (a password was set for it) is remembered like a yes, asks nothing and tells the server', async () => {
    const url = 'postgres://me@db.example:5432/hr';
    const { h, asked } = host({ answers: [false] });
    const trust = new SourceTrust(h);
    let told = 0;
    trust.onDidAllow(() => {
        told++;
    });
    const staff = { ...source(url), format: 'postgres' as const, table: 'staff' };
    assert.deepEqual(await trust.confirm([staff]), { ok: false, refused: [url] }, 'refused for this session first');
    await trust.allow([url]);
    assert.equal(told, 1);
    assert.deepEqual(trust.snapshot().allowed, [url]);
    assert.deepEqual(await trust.confirm([staff]), { ok: true }, 'an earlier no of this session is overridden');
    assert.equal(asked.length, 1, 'not asked again');
    await trust.allow([url]);
    assert.equal(told, 1, 'nothing new: no notification');
});
