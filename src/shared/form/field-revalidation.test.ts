import { zodResolver } from '@hookform/resolvers/zod';
import type { ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { blankSkillRow, requisitionFormDefaults, requisitionFormSchema } from '../../domain';
import type { RequisitionForm } from '../../domain';
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

describe('fieldRevalidationResolver', () => {
  const fast = fieldRevalidationResolver(requisitionFormSchema);
  const whole = zodResolver(requisitionFormSchema);

  it('finds, for one changed field, exactly the problems a full parse finds', async () => {
    const values = form();
    const one = await fast(values, undefined, options(['skills.9.description']));
    const all = await whole(values, undefined, options(['skills.9.description']));
    expect(Object.keys(one.errors).length).toBeGreaterThan(3);
    expect(one.errors).toEqual(all.errors);
    values.skills[9] = { ...blankSkillRow(), description: 'Kubernetes' };
    const fixed = await fast(values, undefined, options(['skills.9.description']));
    expect(fixed.errors).toEqual((await whole(values, undefined, options([]))).errors);
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
