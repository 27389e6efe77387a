/**
 * The payload domain: field catalogs, wire and form schemas, conversions and validation.
 * Framework-free: imported by the browser, the portal server, the sandbox and web workers.
 */
export type { DataType, DateFormat, FieldDef, FieldOption, Requirement } from './catalog-types';
export { dateFormats, describeRequirement } from './catalog-types';
export * from './enumerations';
export { formatWireDate, parseWireDate, wireDateToIso } from './dates';
export type { FieldIssue } from './field-issue';
export { describeOptions, fieldProblem, isBlank } from './field-rules';
export type { ItemResult } from './wire-check';

export type { RequisitionWireKey } from './requisition-catalog';
export {
  MAX_CUSTOM_FIELDS,
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
  requisitionWireSchema,
  skillKey,
  validateRequisitionItem,
} from './requisition-wire';

export type { CandidateWireKey } from './candidate-catalog';
export {
  MAX_ANSWERS,
  MAX_CANDIDATE_CUSTOM_FIELDS,
  MAX_SKILL_RESPONSES,
  candidateCatalog,
  candidateField,
  candidateWireKeys,
  defaultNoFlags,
} from './candidate-catalog';
export type { CandidateWire, RequisitionContext } from './candidate-wire';
export {
  answerKey,
  blankCandidateWire,
  candidateWireSchema,
  skillResponseKey,
  validateCandidateItem,
} from './candidate-wire';

export type {
  QuestionRow,
  RequisitionForm,
  RequisitionScalarKey,
  SkillRow,
} from './requisition-form';
export {
  blankSkillRow,
  questionRowSchema,
  requisitionChoices,
  requisitionFormDefaults,
  requisitionFormPath,
  requisitionFormSchema,
  requisitionFormToWire,
  requisitionWireToForm,
  skillRowSchema,
} from './requisition-form';
export type {
  AnswerRow,
  CandidateForm,
  CandidateScalarKey,
  SkillResponseRow,
} from './candidate-form';
export {
  answerRowSchema,
  blankSkillResponseRow,
  candidateFormDefaults,
  candidateFormPath,
  candidateFormSchema,
  candidateFormToWire,
  candidateWireToForm,
  skillResponseRowSchema,
} from './candidate-form';
export type { BatchItemReport, BatchReport, PayloadKind } from './batch';
export {
  batchShapeProblem,
  itemProblems,
  itemReport,
  payloadKinds,
  validateBatch,
  withDateFormat,
} from './batch';
export { isPlainObject } from './wire-check';
export type { RequisitionRecord, RequisitionRecordKey } from './requisition-record';
export {
  requisitionListSchema,
  requisitionRecordSchema,
  requisitionRecordShape,
  requisitionRecordToAmendWire,
} from './requisition-record';
export type { AmendConflict, FieldChange, Freshness, LoadedRecord } from './requisition-amend';
export {
  amendAsEdited,
  amendChanges,
  amendFreshness,
  amendIdentifyingKeys,
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
export type { NotSubmittable, NotSubmittableId, SubmittableFacts } from './submittable';
export {
  notSubmittableText,
  recordNotSubmittable,
  todayIso,
  whyNotSubmittable,
} from './submittable';
export type {
  DateCell,
  DateOrder,
  CellReading,
  HeaderMatch,
  MappedColumn,
  MappingTemplate,
  RowCheck,
  SheetBody,
  SheetRequisition,
  SheetIssue,
  SheetItem,
  SheetReport,
  SheetRowReport,
} from './spreadsheet';
export {
  catalogOf,
  cellText,
  checkSheet,
  dateOrders,
  columnReadings,
  decimalCommaColumns,
  readDecimalCommaCell,
  chooseTemplate,
  decodeSheet,
  headerAliases,
  identityKey,
  jsonSheet,
  mapHeaders,
  normalizeHeader,
  readChoiceCell,
  readDateCell,
  repeatedItems,
  repeatMessage,
  rowReader,
  rowToItem,
  sheetBody,
  sheetDefaults,
  sheetIdentity,
  sheetRowChecker,
  withRepeat,
} from './spreadsheet';
