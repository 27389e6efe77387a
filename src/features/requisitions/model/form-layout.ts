import type { FieldDef, RequisitionWireKey } from '../../../domain';
import { requisitionCatalog, requisitionChoices } from '../../../domain';

/**
 * The requisition form's layout, derived from the catalog: its sections in order, each field in
 * catalog order, and each either/or pair (spec rules 1, 3, 8) as one choice placed where its
 * first field would be. Only the words of the choices live here; labels, hints and options come
 * from the catalog.
 */
export type RequisitionMode = 'insert' | 'amend';
export type ChoiceKey = keyof typeof requisitionChoices;

export const sectionOrder = [
  'Basics',
  'Classification',
  'Schedule',
  'Rates',
  'Description',
  'People',
  'Accounting',
  'Skills',
  'Questions',
  'Custom fields',
] as const;
export type SectionName = (typeof sectionOrder)[number];

export type LayoutEntry =
  { type: 'field'; def: FieldDef<RequisitionWireKey> } | { type: 'choice'; choice: ChoiceKey };

const byId = { value: 'id', label: 'By user ID' };
const byName = { value: 'name', label: 'By first and last name' };
const byCode = { value: 'code', label: 'By reference code' };
const byVmsId = { value: 'id', label: 'By VMS ID' };

export interface ChoiceMeta {
  legend: string;
  hint: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  /** Required for Insert (as one of its alternatives). */
  requiredForInsert: boolean;
}

export const choiceMeta: Record<ChoiceKey, ChoiceMeta> = {
  reqclassBy: {
    legend: 'Req class',
    hint: 'Give the req class by its ID or by its full path in the org',
    options: [
      { value: 'id', label: 'By req class ID' },
      { value: 'path', label: 'By full req path' },
    ],
    requiredForInsert: true,
  },
  clientcontactBy: {
    legend: 'Client contact',
    hint: 'Blank on Insert: the requisition owner',
    options: [byId, byName],
    requiredForInsert: false,
  },
  reqownerBy: {
    legend: 'Requisition owner',
    hint: 'The user who owns the requisition, by user ID or by name as in their profile',
    options: [byId, byName],
    requiredForInsert: true,
  },
  reportstoBy: {
    legend: 'Reports-to user',
    hint: 'Blank on Insert: the requisition owner',
    options: [byId, byName],
    requiredForInsert: false,
  },
  worklocationBy: {
    legend: 'Work location',
    hint: 'By reference code or by VMS ID',
    options: [byCode, byVmsId],
    requiredForInsert: false,
  },
  costcenterBy: {
    legend: 'Cost center',
    hint: 'By reference code or by VMS ID',
    options: [byCode, byVmsId],
    requiredForInsert: false,
  },
  glBy: {
    legend: 'GL',
    hint: 'By reference code or by VMS ID',
    options: [byCode, byVmsId],
    requiredForInsert: false,
  },
  projectBy: {
    legend: 'Project',
    hint: 'By reference code or by VMS ID; one project per requisition',
    options: [byCode, byVmsId],
    requiredForInsert: false,
  },
};

const choiceOfKey = new Map<string, ChoiceKey>();
for (const [choice, alternatives] of Object.entries(requisitionChoices) as Array<
  [ChoiceKey, Record<string, readonly RequisitionWireKey[]>]
>) {
  for (const keys of Object.values(alternatives))
    for (const key of keys) choiceOfKey.set(key, choice);
}

function buildLayout(): Map<SectionName, LayoutEntry[]> {
  const layout = new Map<SectionName, LayoutEntry[]>(sectionOrder.map((name) => [name, []]));
  const placed = new Set<ChoiceKey>();
  for (const def of requisitionCatalog) {
    // The request type is the page (New or Amend); skills and questions are rows.
    if (def.key === 'requesttype') continue;
    if (def.row && def.row.group !== 'customfields') continue;
    const entries = layout.get(def.section as SectionName);
    if (!entries) continue;
    const choice = choiceOfKey.get(def.key);
    if (choice) {
      if (!placed.has(choice)) entries.push({ type: 'choice', choice });
      placed.add(choice);
      continue;
    }
    entries.push({ type: 'field', def });
  }
  return layout;
}

export const formLayout = buildLayout();

/** The catalog entries of a choice's alternative in use, e.g. reqownerBy "name" → both names. */
export function alternativeFields(
  choice: ChoiceKey,
  alternative: string,
): Array<FieldDef<RequisitionWireKey>> {
  const keys = requisitionChoices[choice][alternative] ?? [];
  return keys.flatMap((key) => requisitionCatalog.filter((def) => def.key === key));
}

/** Whether the form shows a field as required in this mode (decisions.md, "Requisition rules"). */
export function isRequired(def: FieldDef, mode: RequisitionMode): boolean {
  if (def.requirement === 'insert-amend') return true;
  return mode === 'insert' && (def.requirement === 'insert' || def.requirement === 'either');
}

/** Fields of a section as shown in a mode: Status only on Amend. */
export function sectionEntries(section: SectionName, mode: RequisitionMode): LayoutEntry[] {
  return (formLayout.get(section) ?? []).filter(
    (entry) => !(entry.type === 'field' && entry.def.key === 'reqstatus' && mode === 'insert'),
  );
}

/** Multi-line text fields. */
export const longTextKeys: ReadonlySet<string> = new Set([
  'shortdescription',
  'completedescription',
  'behaviorcharacteristics',
]);
