import type { FieldDef, RequisitionWireKey } from '@/domain';
import { requisitionCatalog, requisitionChoices } from '@/domain';
import { requiredOnInsert, requisitionAlternatives } from '@/domain/requisition-alternatives';
import type { RequisitionSection } from '@/domain/requisition-catalog';
import { isRequisitionSection, requisitionSections } from '@/domain/requisition-catalog';

/**
 * The requisition form's layout, derived from the catalog: its sections in order, each field in
 * catalog order, and each either/or pair (spec rules 1, 3, 8; domain/requisition-alternatives.ts)
 * as one choice placed where its first field would be.
 */
export type RequisitionMode = 'insert' | 'amend';
export type ChoiceKey = keyof typeof requisitionChoices;

export const sectionOrder = requisitionSections;
export type SectionName = RequisitionSection;

export type LayoutEntry =
  { type: 'field'; def: FieldDef<RequisitionWireKey> } | { type: 'choice'; choice: ChoiceKey };

export interface ChoiceMeta {
  legend: string;
  hint: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  /** Required for Insert (as one of its alternatives). */
  requiredForInsert: boolean;
}

/** Each choice's words and requiredness, from the domain's either/or groups and the catalog. */
export const choiceMeta = Object.fromEntries(
  requisitionAlternatives.map((group): [ChoiceKey, ChoiceMeta] => [
    group.choice,
    {
      legend: group.legend,
      hint: group.hint,
      options: group.options.map(({ value, label }) => ({ value, label })),
      requiredForInsert: requiredOnInsert(group),
    },
  ]),
) as Record<ChoiceKey, ChoiceMeta>; // one entry per group

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
    const entries = isRequisitionSection(def.section) ? layout.get(def.section) : undefined;
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

/** Whether the form shows a field as required in this mode (decision 000, "Requisition"). */
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

/**
 * The section a form path is shown in (for the section navigation's problem counts): rows by
 * their group, a choice by where it is placed, a field by its catalog section.
 */
const sectionOfName = new Map<string, SectionName>();
for (const [section, entries] of formLayout) {
  for (const entry of entries) {
    if (entry.type === 'field') sectionOfName.set(entry.def.key, section);
    else sectionOfName.set(entry.choice, section);
  }
}
for (const [key, choice] of choiceOfKey) {
  const section = sectionOfName.get(choice);
  if (section) sectionOfName.set(key, section);
}

export function sectionOfPath(path: string): SectionName | undefined {
  const top = path.split('.')[0] ?? '';
  if (top === 'skills') return 'Skills';
  if (top === 'questions') return 'Questions';
  return sectionOfName.get(top);
}
