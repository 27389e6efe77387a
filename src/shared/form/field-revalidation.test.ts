import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, ResolverOptions } from 'react-hook-form';
import { get } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import {
  blankSkillRow,
  requisitionFormDefaults,
  requisitionFormSchema,
  requisitionWireToForm,
} from '@/domain';
import type { RequisitionForm } from '@/domain';
import { requisitionInsert } from '@/test-support/test-data';
import { fieldRevalidationResolver } from './field-revalidation';

const options = (names: string[]) =>
  ({
    names,
    fields: {},
    shouldUseNativeValidation: false,
  }) as unknown as ResolverOptions<RequisitionForm>;

const form = (): RequisitionForm => {
  const values = requisitionFormDefaults();
  values.skills = Array.from({ length: 10 }, () => blankSkillRow());
  values.skills[9] = { ...blankSkillRow(), expertiserating: '3' };
  values.noofopenings = 'many';
  return values;
};

/** Every error's path in react-hook-form's nested errors. */
function flatten(errors: FieldErrors, prefix = ''): string[] {
  return Object.entries(errors).flatMap(([key, value]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (value && typeof value === 'object' && 'message' in value) return [path];
    return value && typeof value === 'object' ? flatten(value as FieldErrors, path) : [];
  });
}

describe('fieldRevalidationResolver', () => {
  const fast = fieldRevalidationResolver(requisitionFormSchema);
  const whole = zodResolver(requisitionFormSchema);

  it('finds, for one changed field, the problem a full parse finds there, and says the form has others', async () => {
    const values = form();
    const field = 'skills.9.description';
    const one = await fast(values, undefined, options([field]));
    const all = await whole(values, undefined, options([field]));
    // Only filled rows are sent, so the row is the VMS's skill 1.
    expect((get(all.errors, field) as { message?: string } | undefined)?.message).toBe(
      'Skill 1 needs a description; describe the skill or remove the row',
    );
    expect(get(one.errors, field)).toEqual(get(all.errors, field));
    // The form has other problems (noofopenings among them): the answer is not valid, and
    // carries one of them, not every one.
    expect(Object.keys(all.errors).length).toBeGreaterThan(3);
    expect(flatten(one.errors)).toHaveLength(2);

    values.skills[9] = { ...blankSkillRow(), description: 'Kubernetes' };
    const fixed = await fast(values, undefined, options([field]));
    expect(get(fixed.errors, field)).toBeUndefined();
    expect(get((await whole(values, undefined, options([]))).errors, field)).toBeUndefined();
    expect(flatten(fixed.errors)).toHaveLength(1);

    const clean = requisitionWireToForm(requisitionInsert({}), 'YYYY-MM-DD');
    const none = await fast(clean, undefined, options(['titlerole']));
    expect(none.errors).toEqual((await whole(clean, undefined, options(['titlerole']))).errors);
  });

  it('makes no check for a value typed over before the page had a moment for it', async () => {
    const values = form();
    const field = 'skills.9.expertiserating';
    const answer = fast(values, undefined, options([field]));
    // The next key, before the first one's check has run: react-hook-form would ignore its answer.
    values.skills[9] = { ...blankSkillRow(), expertiserating: '34' };
    expect(await answer).toEqual({ values: {}, errors: {} });
    // The newer key's own check is made, and finds the form's problems.
    expect(
      flatten((await fast(values, undefined, options([field]))).errors).length,
    ).toBeGreaterThan(0);
  });

  it('parses the whole form when a value is not of the shape, or on a submit', async () => {
    const broken = { ...form(), titlerole: 42 } as unknown as RequisitionForm;
    const one = await fast(broken, undefined, options(['titlerole']));
    expect(one.errors).toEqual((await whole(broken, undefined, options(['titlerole']))).errors);
    expect(one.errors.titlerole?.message).toBeTruthy();
    const valid = await fast(form(), undefined, options(['titlerole', 'orgid']));
    expect(valid).toEqual(await whole(form(), undefined, options(['titlerole', 'orgid'])));
  });
});
