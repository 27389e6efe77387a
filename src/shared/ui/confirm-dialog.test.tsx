// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfirmButton } from './confirm-dialog';

afterEach(cleanup);

function renderButton(done: string[]) {
  render(
    <ConfirmButton
      label="Delete the suite"
      title="Delete the suite “Smoke”?"
      confirmLabel="Delete it"
      cancelLabel="Keep it"
      destructive
      onConfirm={() => done.push('deleted')}
    >
      <p>Its runs go with it.</p>
    </ConfirmButton>,
  );
}

describe('ConfirmButton', () => {
  it('asks first, and runs the action only once it is confirmed, closing the question', async () => {
    const done: string[] = [];
    renderButton(done);
    const dialog = screen.getByRole('dialog', { hidden: true });
    expect(dialog.hasAttribute('open')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Delete the suite' }));
    expect(dialog.hasAttribute('open')).toBe(true);
    expect(screen.getByRole('dialog', { name: 'Delete the suite “Smoke”?' })).toBe(dialog);
    expect(done).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete it', hidden: true }));
    expect(done).toEqual(['deleted']);
    expect(dialog.hasAttribute('open')).toBe(false);
  });

  it('does nothing when the question is answered with cancel', async () => {
    const done: string[] = [];
    renderButton(done);
    await userEvent.click(screen.getByRole('button', { name: 'Delete the suite' }));
    await userEvent.click(screen.getByRole('button', { name: 'Keep it', hidden: true }));
    expect(done).toEqual([]);
    expect(screen.getByRole('dialog', { hidden: true }).hasAttribute('open')).toBe(false);
  });
});
