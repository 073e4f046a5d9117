/** The language room's front door: the faces (src/cli, src/server, src/extension) import it, nothing deeper. */
export { buildSpecModel, documentPath } from './build-model.js';
export { ProbeDocumentValidator } from './document-validator.js';
export {
    type Attribute,
    type AttributeTuple,
    type Fd,
    type Fk,
    type Model,
    type Probe,
    type Relation,
    type Rule,
    type Source,
    isAliases,
    isAsk,
    isAttribute,
    isAttributePath,
    isAttributeTuple,
    isFd,
    isFk,
    isGoldWhen,
    isModel,
    isOption,
    isPhrasing,
    isProbe,
    isRelation,
    isRule,
    isSetting,
    isSource,
    isSpec,
    isStem,
    isSuite,
} from './generated/ast.js';
export { ProbeSpecGeneratedModule, ProbeSpecGeneratedSharedModule } from './generated/module.js';
export { specFileProblem } from './importable.js';
export { ProbeDocumentFactory } from './documents.js';
export { unparseableMessage } from './parse-guard.js';
export { type ProbeAddedServices, ProbeModule, ProbeSharedModule } from './module.js';
export { importedDocuments } from './scope.js';
export { probeKinds } from './validation/probes.js';
export { modelSettingsOf, settingChoices, settingHover, settingNames } from './validation/settings.js';
export { closest } from './validation/suggest.js';
export { stringOffsets, templateScope } from './validation/templates.js';
export { registerValidationChecks } from './validator.js';
