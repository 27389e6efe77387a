// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { FormNav } from './form-nav';

afterEach(cleanup);

/** A form whose lower section is drawn only when `drawn` is set, as the long form's is. */
function Page({ onReady }: { onReady(draw: () => void): void }) {
  const form = useForm();
  const [drawn, setDrawn] = useState(false);
  onReady(() => setDrawn(true));
  return (
    <FormProvider {...form}>
      <form>
        <FormNav
          sections={[{ id: 'section-skills', title: 'Skills' }]}
          sectionOf={() => undefined}
        />
        {drawn ? (
          <h2 id="section-skills" tabIndex={-1}>
            Skills
          </h2>
        ) : null}
      </form>
    </FormProvider>
  );
}

describe('FormNav', () => {
  it('focuses a section chosen before the form has drawn it, once it is drawn', async () => {
    const user = userEvent.setup();
    let draw = () => {};
    render(<Page onReady={(next) => (draw = next)} />);
    await user.click(screen.getByRole('link', { name: 'Skills' }));
    expect(window.location.hash).toBe('');
    draw();
    const heading = await screen.findByRole('heading', { name: 'Skills' });
    await expect.poll(() => document.activeElement).toBe(heading);
  });
});
