import * as vscode from 'vscode';
import type { ReviewView, WebviewToHost } from '../../protocol/webview.js';
import type { ReviewRound } from '../../core/review/index.js';
import type { Services } from '../services.js';
import { engine } from '../state.js';
import * as settings from '../settings.js';
import { errorText } from '../context.js';
import { Panel } from './base.js';

/**
 * Review Answers: one reviewer's round of a run's answers (the engine's ReviewRound, the one `halluprobe review` steps
 * through). The webview shows the engine's view and sends the key pressed; each key goes to the engine in turn, the
 * label is stored at once, and the CodeLens reads the run's labels again. One panel, opened beside the editor (it
 * fits a narrow side column).
 */
export class ReviewPanel extends Panel {
    private static current: ReviewPanel | undefined;
    private initialised = false;
    private round: ReviewRound | undefined;
    private file = '';
    /** Keys are taken one after another, in the order pressed. */
    private keys: Promise<void> = Promise.resolve();
    private sources = new Set<string>();

    private constructor(
        private readonly s: Services,
        panel: vscode.WebviewPanel,
    ) {
        super(s.ctx, panel, 'review', 'Review Answers');
    }

    static show(s: Services): ReviewPanel {
        if (ReviewPanel.current) {
            ReviewPanel.current.panel.reveal(undefined, false);
            return ReviewPanel.current;
        }
        const panel = vscode.window.createWebviewPanel(
            'halluprobe.review',
            'Review Answers',
            { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
            Panel.options(),
        );
        const p = new ReviewPanel(s, panel);
        ReviewPanel.current = p;
        p.onDidDispose(() => {
            ReviewPanel.current = undefined;
        });
        return p;
    }

    /** Starts showing `round` of a run of the spec `file`. */
    start(file: string, round: ReviewRound, view: ReviewView): void {
        this.file = file;
        this.round = round;
        this.panel.title = `Review Answers · ${round.runId}`;
        this.view(view);
    }

    private view(data: ReviewView): void {
        this.sources = new Set(data.item?.rows.map(r => r.file) ?? []);
        this.post(this.initialised ? { type: 'update', panel: 'review', data } : { type: 'init', panel: 'review', data });
        this.initialised = true;
    }

    protected override mayOpen(file: string): boolean {
        return this.sources.has(file);
    }

    protected override other(msg: WebviewToHost): Promise<void> {
        if (msg.type !== 'review') return Promise.resolve();
        const round = this.round;
        if (!round) return Promise.resolve();
        const next = this.keys.then(async () => {
            try {
                const { view, stored } = await (
                    await engine()
                ).reviewKey(settings.storePath(this.file), round, msg.action, msg.slot);
                if (round !== this.round) return;
                this.view(view);
                if (stored) this.s.state.labelsChanged(this.file, round.runId);
            } catch (err) {
                this.error(`The label was not stored: ${errorText(err)}`);
            }
        });
        this.keys = next;
        return next;
    }
}
