/** The spec room's front door: the faces (src/cli, src/server, src/extension) import it, nothing deeper. */
export { checkSpec, dataOptionsFor } from './check.js';
export { type SpecDiagnostic, loadSpec, toSpecDiagnostic } from './load.js';
export {
    type ModelDecl,
    type ProbeDecl,
    type Range,
    type SettingValue,
    type SourceDecl,
    type SpecLocation,
    type SpecModel,
    fdId,
} from './model.js';
export { type Expr, TEMPLATE_FUNCTIONS, parseExpression, parseTemplate } from './template.js';
