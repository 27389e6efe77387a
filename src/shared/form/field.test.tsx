// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Field } from './field';

afterEach(cleanup);

describe('Field', () => {
  it('labels its control, and a second Field’s label names its own control', () => {
    render(
      <form>
        <Field label="Name">{(control) => <input {...control} name="name" type="text" />}</Field>
        <Field label="Address">{(control) => <input {...control} name="url" type="url" />}</Field>
      </form>,
    );
    expect(screen.getByRole('textbox', { name: 'Name' }).getAttribute('name')).toBe('name');
    expect(screen.getByRole('textbox', { name: 'Address' }).getAttribute('name')).toBe('url');
    expect(screen.getByRole('textbox', { name: 'Name' }).hasAttribute('aria-describedby')).toBe(
      false,
    );
  });

  it('describes its control by the hint when it has one', () => {
    render(
      <Field label="Name" hint="Where it is used, so you know which to revoke.">
        {(control) => <input {...control} name="name" type="text" />}
      </Field>,
    );
    const describedBy = screen
      .getByRole('textbox', { name: 'Name' })
      .getAttribute('aria-describedby');
    expect(document.getElementById(describedBy ?? '')?.textContent).toBe(
      'Where it is used, so you know which to revoke.',
    );
  });
});
