import type { FieldDef } from './catalog-types';
import { durationUnits } from './enumerations';

/**
 * Two fields of skill `n` that a requisition's skill and a candidate's response to it describe
 * alike (the spec gives both the same label, type and values); each catalog adds its own key,
 * wire name and form row.
 */
export function skillExperienceUnit(n: number) {
  return {
    label: `Skill ${n} experience unit`,
    type: 'INTEGER',
    requirement: 'optional',
    options: durationUnits,
    section: 'Skills',
  } as const satisfies Partial<FieldDef>;
}

export function skillExpertiseRating(n: number) {
  return {
    label: `Skill ${n} expertise rating`,
    type: 'INTEGER',
    requirement: 'optional',
    section: 'Skills',
    hint: 'Valid values depend on the client',
  } as const satisfies Partial<FieldDef>;
}
