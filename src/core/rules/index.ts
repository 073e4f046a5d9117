/**
 * The rules room's front door for the faces: what a rule derives over the loaded data, with proofs (the hover and
 * "Preview derived facts"). The room's own files import each other by file.
 */
export { previewRule, previewSummary, previewText, type RulePreview } from './preview.js';
