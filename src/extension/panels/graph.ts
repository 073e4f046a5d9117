import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GraphView, WebviewRequest, WebviewToHost } from '../../protocol/webview.js';
import type { Services } from '../services.js';
import { Panel } from './base.js';
import { engine, unsavedTexts } from '../state.js';

/**
 * The graph panel: the schema of a spec (following the spec as it is saved) or a question's KG path. There is one,
 * reused for every spec and question (it never takes a new editor column per graph); it shows one spec at a time.
 */
export class GraphPanel extends Panel {
    private static current: GraphPanel | undefined;
    private initialised = false;
    private view: GraphView['view'] = 'schema';

    private constructor(
        private readonly s: Services,
        panel: vscode.WebviewPanel,
        private file: string,
    ) {
        super(s.ctx, panel, 'graph', GraphPanel.title(file));
        const follow = (changed: string) => {
            if (this.view === 'schema' && (changed === this.file || changed === '')) void this.refreshSchema();
        };
        const subs = [s.state.onDidChangeSpec(follow), s.state.onDidEditSpec(follow)];
        this.onDidDispose(() => subs.forEach(d => d.dispose()));
    }

    private static title(file: string): string {
        return `Graph · ${path.basename(file)}`;
    }

    /** The graph panel, showing `file` from now on: the open one (revealed where it is), or a new one beside the editor. */
    static show(s: Services, file: string): GraphPanel {
        const existing = GraphPanel.current;
        if (existing) {
            existing.file = file;
            existing.panel.title = GraphPanel.title(file);
            existing.panel.reveal(undefined, true);
            return existing;
        }
        const panel = vscode.window.createWebviewPanel(
            'halluprobe.graph',
            GraphPanel.title(file),
            { viewColumn: GraphPanel.column(file), preserveFocus: true },
            Panel.options(),
        );
        const p = new GraphPanel(s, panel, file);
        GraphPanel.current = p;
        p.onDidDispose(() => {
            if (GraphPanel.current === p) GraphPanel.current = undefined;
        });
        return p;
    }

    /**
     * Where a new graph panel opens: beside the editor when it is the only column; with two or more, in the column of a
     * HalluProbe panel (the preview it was opened from), else the last one not showing the spec — never a new third
     * column that squeezes the editor (issue 36 item 6).
     */
    private static column(file: string): vscode.ViewColumn {
        const groups = vscode.window.tabGroups.all;
        if (groups.length < 2) return vscode.ViewColumn.Beside;
        const ours = groups.find(g =>
            g.tabs.some(t => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('halluprobe.')),
        );
        const showsSpec = (g: vscode.TabGroup) =>
            g.activeTab?.input instanceof vscode.TabInputText && g.activeTab.input.uri.fsPath === file;
        return (ours ?? [...groups].reverse().find(g => !showsSpec(g)) ?? groups.at(-1)!).viewColumn;
    }

    show(data: GraphView): void {
        this.view = data.view;
        this.post(this.initialised ? { type: 'update', panel: 'graph', data } : { type: 'init', panel: 'graph', data });
        this.initialised = true;
    }

    private async refreshSchema(): Promise<void> {
        try {
            const e = await engine();
            const { spec } = await e.specView(this.file, unsavedTexts());
            this.show(e.schemaView(spec, this.file));
        } catch (err) {
            this.ctx.output.warn(`graph: could not reload ${this.file}: ${err instanceof Error ? err.message : String(err)}`);
        }
    }

    /** The fact view's answers each open their question's graph (for the fact view's model). */
    protected override async other(msg: WebviewToHost): Promise<void> {
        if (msg.type === 'openQuestion')
            await vscode.commands.executeCommand('halluprobe.openGraph', {
                file: this.file,
                questionId: msg.questionId,
                ...(msg.model ? { model: msg.model } : {}),
            });
    }

    protected override async handle(req: WebviewRequest): Promise<unknown> {
        if (req.method === 'expand') {
            await this.s.state.readable(this.file);
            const e = await engine();
            // Expanding reads the data only: no need to generate the spec's questions for it.
            return e.neighbourhood(await e.specData(this.file), req.params);
        }
        const ext = req.params.format;
        const target = await vscode.window.showSaveDialog({
            defaultUri: vscode.Uri.file(path.join(path.dirname(this.file), `halluprobe-graph.${ext}`)),
            filters: { [ext.toUpperCase()]: [ext] },
        });
        if (!target) return { saved: null };
        const data = req.params.data;
        if (ext === 'png') {
            const m = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(data);
            if (!m) throw new Error('the PNG export was not a PNG data URL');
            fs.writeFileSync(target.fsPath, Buffer.from(m[1]!, 'base64'));
        } else {
            fs.writeFileSync(target.fsPath, data);
        }
        return { saved: target.fsPath };
    }
}
