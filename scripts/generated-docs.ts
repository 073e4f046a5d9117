// The parts of docs/language.md written from the engine rather than by hand: the probe kinds index (from the
// registry: kind, target, members, what it asks, where its docs are) and the settings tables (from the settings
// declarations: suite, model, every probe's, each family's, each source format's). Each sits between
// `<!-- generated: NAME -->` and `<!-- end: NAME -->`.
//   node --import tsx scripts/generated-docs.ts          rewrite them
//   node --import tsx scripts/generated-docs.ts --check  exit 1 when they differ (test/unit/language/docs-generated.test.ts checks too)
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { familyKinds, findCore } from '../src/core/probes/registry.js';
import { PROBE_SETTINGS } from '../src/core/probes/settings.js';
import { modelDecls, settingTakes, sourceDecls, suiteDecls } from '../src/core/language/validation/settings.js';
import type { SettingDecl, SettingValue } from '../src/core/spec/model.js';

export const LANGUAGE_DOC = path.resolve(import.meta.dirname, '..', 'docs', 'language.md');

const TARGETS = {
    fd: 'using <fd>',
    path: 'along R.a -> S.b [-> …]',
    relation: 'about <relation>',
    rule: 'using <rule>',
} as const;

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const shown = (v: SettingValue): string =>
    Array.isArray(v)
        ? `[${v.map(shown).join(', ')}]`
        : typeof v === 'string' && !/^[_a-zA-Z]\w*$/.test(v)
          ? JSON.stringify(v)
          : String(v);

/** The kinds index: one row per registered family, in the registry's order. */
export function kindsIndex(kinds: readonly string[] = familyKinds()): string {
    const rows = kinds.map(kind => {
        const f = findCore(kind)!;
        const docs = f.docs ? `[${f.docs.split('#')[0]}](${f.docs})` : '—';
        const members = f.members.length ? f.members.map(m => `\`${m}\``).join(', ') : '—';
        return `| \`${kind}\` | \`${TARGETS[f.target]}\` | ${members} | ${cell(f.title)} | ${docs} |`;
    });
    return ['| kind | target | members | asks | docs |', '|---|---|---|---|---|', ...rows].join('\n');
}

function table(decls: readonly SettingDecl[], note: (d: SettingDecl) => string = () => ''): string {
    const rows = decls.map(
        d =>
            `| \`${d.name}\` | ${cell(settingTakes(d))} | ${d.default === undefined ? '—' : `\`${cell(shown(d.default))}\``} | ${cell(d.doc + note(d))} |`,
    );
    return ['| setting | takes | default | what it does |', '|---|---|---|---|', ...rows].join('\n');
}

/** Every settings table, by block. */
export function settingsTables(kinds: readonly string[] = familyKinds()): string {
    const parts = [
        '### Suite settings',
        '',
        table(suiteDecls(), d => (d.suite ? ' For every model of the suite that does not set its own.' : '')),
        '',
        '### Model settings',
        '',
        table(modelDecls(), d => (d.suite ? ' A suite may set it for its models.' : '')),
        '',
        "### Every probe's settings",
        '',
        table(PROBE_SETTINGS.decls),
        '',
    ];
    for (const kind of kinds) {
        const own = findCore(kind)!.settings;
        if (own.length) parts.push(`### \`${kind}\` probe settings`, '', table(own), '');
    }
    for (const format of ['csv', 'json', 'postgres'])
        parts.push(
            `### \`${format}\` source settings${format === 'json' ? ' (and `jsonl`)' : ''}`,
            '',
            table(sourceDecls(format)),
            '',
        );
    return parts.join('\n').trimEnd();
}

/** The text with each generated part between its markers replaced by `parts[name]`. */
export function withGenerated(text: string, parts: Record<string, string>): string {
    let out = text;
    for (const [name, body] of Object.entries(parts)) {
        const re = new RegExp(`(<!-- generated: ${name} -->\\n)[\\s\\S]*?(\\n<!-- end: ${name} -->)`);
        if (!re.test(out)) throw new Error(`docs/language.md has no <!-- generated: ${name} --> … <!-- end: ${name} --> markers`);
        out = out.replace(re, (_m, open: string, close: string) => `${open}${body}${close}`);
    }
    return out;
}

export function generatedParts(): Record<string, string> {
    return { kinds: kindsIndex(), settings: settingsTables() };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
    const text = readFileSync(LANGUAGE_DOC, 'utf8');
    const next = withGenerated(text, generatedParts());
    if (process.argv.includes('--check')) {
        if (next !== text) {
            console.error('docs/language.md: the generated parts differ; run node --import tsx scripts/generated-docs.ts');
            process.exit(1);
        }
        console.log('docs/language.md: the generated parts match the registry and the settings declarations');
    } else {
        if (next !== text) writeFileSync(LANGUAGE_DOC, next);
        console.log(
            next !== text ? 'docs/language.md: generated parts rewritten' : 'docs/language.md: generated parts already current',
        );
    }
}
