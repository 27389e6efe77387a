import { describe, expect, it } from 'vitest';
import { fieldId, flattenErrors } from './field-ids';

describe('flattenErrors', () => {
  it('lists nested and field-array errors by form path', () => {
    const problems = flattenErrors({
      titlerole: { type: 'custom', message: 'Job title is required for Insert' },
      skills: Object.assign(
        [undefined, { description: { type: 'custom', message: 'Skill 2 needs a description' } }],
        { root: { type: 'custom', message: 'At most 10 skills' } },
      ),
    } as never);
    expect(problems).toEqual([
      { name: 'titlerole', message: 'Job title is required for Insert' },
      { name: 'skills.1.description', message: 'Skill 2 needs a description' },
      { name: 'skills', message: 'At most 10 skills' },
    ]);
  });

  it('makes ids safe for the DOM', () => {
    expect(fieldId('skills.2.description')).toBe('field-skills-2-description');
  });
});
