import * as fs from 'node:fs';

/**
 * Watches the data files that open specs read and reports which specs to re-check when one changes, so the
 * editor re-flags FD violations and dangling FKs after the data is edited (the data cache then reloads only
 * that file). Events are coalesced: an editor's save often fires several.
 */
export class DataFileWatcher {
    private readonly watched = new Map<string, { watcher: fs.FSWatcher; documents: Set<string> }>();
    private pending = new Set<string>();
    private timer: NodeJS.Timeout | undefined;

    constructor(
        private readonly onChange: (documentUris: string[]) => void,
        private readonly settleMs = 150,
    ) {}

    watch(documentUri: string, files: string[]): void {
        for (const file of files) {
            let entry = this.watched.get(file);
            if (!entry) {
                let watcher: fs.FSWatcher;
                try {
                    watcher = fs.watch(file, { persistent: false }, () => this.changed(file));
                } catch {
                    continue; // a missing file is reported as a diagnostic; it is watched once it exists and is loaded
                }
                watcher.on('error', () => this.unwatch(file));
                entry = { watcher, documents: new Set() };
                this.watched.set(file, entry);
            }
            entry.documents.add(documentUri);
        }
    }

    private changed(file: string): void {
        for (const uri of this.watched.get(file)?.documents ?? []) this.pending.add(uri);
        // A file replaced on save (rename over it) ends this watcher; watch the new file at the next load.
        if (!fs.existsSync(file)) this.unwatch(file);
        clearTimeout(this.timer);
        this.timer = setTimeout(() => {
            const uris = [...this.pending];
            this.pending = new Set();
            if (uris.length > 0) this.onChange(uris);
        }, this.settleMs);
    }

    private unwatch(file: string): void {
        this.watched.get(file)?.watcher.close();
        this.watched.delete(file);
    }

    dispose(): void {
        clearTimeout(this.timer);
        for (const file of [...this.watched.keys()]) this.unwatch(file);
    }
}
