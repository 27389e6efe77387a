/**
 * The payload domain: field catalogs, wire and form schemas, conversions and validation.
 * Framework-free: imported by the browser, the portal server, the sandbox and web workers.
 */
export type { DateFormat, FieldDef } from './catalog-types';
export { describeRequirement } from './catalog-types';
export * from './enumerations';
export { formatWireDate, parseWireDate, wireDateToIso } from './dates';
export type { FieldIssue } from './field-issue';
export { describeOptions, isBlank } from './field-rules';

export type { RequisitionWireKey } from './requisition-catalog';
export {
  MAX_QUESTIONS,
  MAX_SKILLS,
  requisitionCatalog,
  requisitionField,
  requisitionResponseName,
  requisitionWireKeys,
} from './requisition-catalog';
export type { RequisitionWire } from './requisition-wire';
export {
  blankRequisitionWire,
  questionKey,
  skillKey,
  validateRequisitionItem,
} from './requisition-wire';

export type { CandidateWireKey } from './candidate-catalog';
export {
  MAX_ANSWERS,
  MAX_SKILL_RESPONSES,
  candidateCatalog,
  candidateField,
  candidateWireKeys,
} from './candidate-catalog';
export type { CandidateWire, RequisitionContext } from './candidate-wire';
export {
  answerKey,
  blankCandidateWire,
  skillResponseKey,
  validateCandidateItem,
} from './candidate-wire';

export type { RequisitionForm } from './requisition-form';
export {
  blankSkillRow,
  requisitionChoices,
  requisitionFormDefaults,
  requisitionFormPath,
  requisitionFormSchema,
  requisitionFormToWire,
  requisitionWireToForm,
} from './requisition-form';
export type { CandidateForm } from './candidate-form';
export {
  blankSkillResponseRow,
  candidateFormDefaults,
  candidateFormPath,
  candidateFormSchema,
  candidateFormToWire,
  candidateWireToForm,
} from './candidate-form';
export type { BatchItemReport, BatchReport } from './batch';
export {
  batchShapeProblem,
  itemProblems,
  itemReport,
  validateBatch,
  withDateFormat,
} from './batch';
export type { PayloadKind, PayloadKindDescriptor } from './payload-kind';
export { candidatePayload, payloadKindOf, payloadKinds, requisitionPayload } from './payload-kind';
export { isPlainObject } from './wire-check';
export type { RequisitionRecord } from './requisition-record';
export {
  requisitionRecordSchema,
  requisitionRecordShape,
  requisitionRecordToAmendWire,
} from './requisition-record';
export type { AmendConflict, LoadedRecord } from './requisition-amend';
export {
  amendAsEdited,
  amendChanges,
  amendFreshness,
  amendWire,
  loadedRecordOf,
  loadedRecordSchema,
  ownerChangeIgnored,
  resolveConflict,
  splitOwnerChange,
} from './requisition-amend';
export { skillRowParts } from './requisition-catalog';
export { skillResponseParts } from './candidate-catalog';
export { fieldNamedIn, withFieldLabels } from './vms-message';
export {
  notSubmittableText,
  recordNotSubmittable,
  todayIso,
  whyNotSubmittable,
} from './submittable';
export type { MappingTemplate } from './spreadsheet';
export type { SheetRequisition, SheetIssue, SheetOptions, SheetReport } from './sheet-check';
export type { DateOrder, CellReading } from './sheet-cells';
export type { MappedColumn } from './sheet-headers';
export {
  catalogOf,
  cellText,
  chooseTemplate,
  decodeSheet,
  identityKey,
  identityKeyOf,
  identityValueOf,
  jsonSheet,
  repeatedItems,
  rowReader,
  rowToItem,
  sheetDefaults,
} from './spreadsheet';
export { checkSheet, sheetRowChecker, withRepeat } from './sheet-check';
export { columnReadings, sheetBody } from './sheet-cells';
export { mapHeaders } from './sheet-headers';
