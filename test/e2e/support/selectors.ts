/** Every workbench selector the e2e tests use, in one place (VS Code 1.104 / code-server 4.104). */
export const S = {
    workbench: '.monaco-workbench',
    quickInput: '.quick-input-widget',
    quickInputBox: '.quick-input-widget input.input',
    quickInputRows: '.quick-input-widget .quick-input-list .monaco-list-row',
    /** The row Enter picks. */
    quickInputFocusedRow: '.quick-input-widget .quick-input-list .monaco-list-row.focused',
    editor: '.editor-instance .monaco-editor',
    /** The Explorer's file tree (shown when the Explorer is the side bar's view). */
    explorer: '.explorer-folders-view',
    /** The Explorer's rows (files and folders), each labelled with its name. */
    explorerRows: '.explorer-folders-view .monaco-list-row',
    /** Every editor tab. */
    editorTabs: '.tabs-container .tab',
    editorTab: (name: string) => `.tabs-container .tab[aria-label^="${name}"]`,
    problemsRows: '.markers-panel .monaco-list-row',
    codeLens: '.monaco-editor .codelens-decoration',
    /** The editor group that has focus (its editor is the active one). */
    activeEditor: '.editor-group-container.active',
    testingTree: '.test-explorer .monaco-list-row',
    /** The Testing view's filter box: a one-line editor, typed into with the keyboard. */
    testingFilter: '.part.sidebar .testing-filter-action-item .monaco-editor',
    testPeek: '.peekview-widget',
    /** A failed test's message, drawn after its line in the editor. */
    testMessageInline: '.monaco-editor .test-error-content-widget',
    activity: (name: string) => `.activitybar .action-label[aria-label^="${name}"]`,
    runAllTests:
        '.part.sidebar .title-actions .action-label[aria-label^="Run"], .part.sidebar .pane-header .action-label[aria-label^="Run"]',
    notificationToasts: '.notifications-toasts .notification-toast',
    notificationMessage: '.notification-list-item-message',
    /** Inside a HalluProbe webview's inner frame. */
    webview: {
        previewRows: '.body .row[data-id]',
        count: '#count',
        filter: '#filter',
        graphNodes: '#nodes li',
        rationale: '#rationale',
        hops: '#hops',
    },
} as const;
