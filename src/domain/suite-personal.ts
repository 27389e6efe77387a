import { candidateCatalog } from './candidate-catalog';
import type { PersonalKind } from './catalog-types';
import type { PayloadKind } from './payload-kind';
import { personalFieldsOf } from './personal-data';
import { requisitionCatalog } from './requisition-catalog';
import type { SuiteCase } from './suite-cases';

/**
 * A case saved from a real call keeps no one's personal data by default (decision 060): each
 * value of a field the catalogs mark personal becomes one the run makes (`{{unique.name}}`,
 * `{{unique.email}}`, `{{unique.id}}`) or a neutral text. A rate and a choice from a fixed list
 * stay: they shape what the VMS answers (a rate above the requisition's maximum is refused) and,
 * once the names, e-mail, identifier and words are gone, say nothing about whom they were for.
 */
const generated: Record<PersonalKind, string | null> = {
  name: '{{unique.name}}',
  email: '{{unique.email}}',
  identifier: '{{unique.id}}',
  text: 'Sample text of a QA suite',
  rate: null,
  choice: null,
};

const personalOf: Record<PayloadKind, ReadonlyMap<string, PersonalKind>> = {
  requisition: personalFieldsOf(requisitionCatalog),
  candidate: personalFieldsOf(candidateCatalog),
};

/**
 * `item` with its personal values replaced by generated ones. A blank value stays blank (that
 * nothing was sent is no one's data) and one that is already a reference stays as it is. A case
 * expecting Error keeps the value of the field its expectation names: that value is what the VMS
 * refused, and another would not be.
 */
export function withGeneratedPersonalValues(
  kind: PayloadKind,
  item: Readonly<Record<string, string>>,
  expect: SuiteCase['expect'],
): Record<string, string> {
  const personal = personalOf[kind];
  const kept = expect.status === 'Error' ? expect.field : undefined;
  return Object.fromEntries(
    Object.entries(item).map(([key, value]) => {
      const personalKind = personal.get(key);
      const replacement = personalKind === undefined ? null : generated[personalKind];
      if (replacement === null || key === kept || value.trim() === '' || value.includes('{{'))
        return [key, value];
      return [key, replacement];
    }),
  );
}
