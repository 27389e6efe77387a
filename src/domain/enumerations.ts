import type { FieldOption } from './catalog-types';

/** Allowed values with their labels, exactly as the spec lists them. */
const options = (pairs: ReadonlyArray<readonly [string, string]>): readonly FieldOption[] =>
  pairs.map(([value, label]) => ({ value, label }));

export const requestTypes = options([
  ['I', 'Insert'],
  ['A', 'Amend'],
]);

export const reqPriorities = options([
  ['1', 'High'],
  ['2', 'Medium'],
  ['3', 'Low'],
]);

export const citizenStatuses = options([
  ['1', 'US Citizen'],
  ['2', 'Authorised US Worker'],
  ['3', 'Open'],
  ['4', 'Authorised Cdn Worker'],
  ['5', 'Cdn Citizen'],
  ['6', 'Landed Immigrant'],
]);

/** durationtype, amountofexperiencetype<n>, skill<n>amountofexperienceunits. */
export const durationUnits = options([
  ['1', 'Days'],
  ['2', 'Weeks'],
  ['3', 'Months'],
  ['4', 'Years'],
]);

export const reqStatuses = options([
  ['4', 'Open'],
  ['5', 'Interview occurring'],
  ['6', 'Filled'],
  ['8', 'Closed/Cancelled'],
  ['9', 'On Hold'],
]);

export const maximumBillRateChoices = options([
  ['0', 'No'],
  ['1', 'Yes'],
]);

export const requisitionEngagementTypes = options([
  ['1', 'Contract'],
  ['2', 'Contract To Perm'],
  ['3', 'Perm'],
]);

export const candidateEngagementTypes = options([
  ['1', 'Contract'],
  ['2', 'Contract To Perm'],
  ['3', 'Perm'],
  ['4', 'Project'],
]);

export const requiredDesired = options([
  ['1', 'Required'],
  ['2', 'Highly Desired'],
  ['3', 'Desired'],
  ['4', 'Nice to Have'],
  ['5', 'Not Required'],
]);

export const yesNo = options([
  ['Y', 'Yes'],
  ['N', 'No'],
]);

/** candcitizenshipstatus is a STRING whose value is the label itself. */
export const candidateCitizenships = options(
  [
    'US Citizen',
    'H1B',
    'K1',
    'Green card',
    'F1',
    'Other',
    'Authorized Canadian Worker',
    'Canadian Citizen',
    'Landed Immigrant',
    'Authorized UK Worker',
  ].map((label) => [label, label] as const),
);

export const skillResponses = options([
  ['1', 'Close'],
  ['2', 'Exceeds'],
  ['3', 'Meets'],
  ['4', 'Not at all'],
]);

export function optionLabel(list: readonly FieldOption[], value: string): string | undefined {
  return list.find((option) => option.value === value)?.label;
}
