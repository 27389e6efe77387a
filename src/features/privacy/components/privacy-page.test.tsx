// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { PrivacyPage } from './privacy-page';

afterEach(cleanup);

function show() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PrivacyPage />
    </QueryClientProvider>,
  );
  return client;
}

/*
 * What the page says before it asks the server anything: an address or a name it cannot look for
 * is refused on the spot, in words that say what to type, and no search is started (so no store
 * table, and no way on to export or erase).
 */
describe('the privacy page, before it asks the server', () => {
  it('says an e-mail without an @ is not one, and starts no search', async () => {
    const client = show();
    await userEvent.type(screen.getByLabelText('E-mail'), 'jane.doe.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Find' }));
    expect(screen.getByRole('alert').textContent).toMatch(/not an e-mail address.*no @/u);
    expect(client.getMutationCache().getAll()).toHaveLength(0);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Erase…' })).toBeNull();
  });

  it('asks for an e-mail when none is typed', async () => {
    const client = show();
    await userEvent.click(screen.getByRole('button', { name: 'Find' }));
    expect(screen.getByRole('alert').textContent).toMatch(/^Type the e-mail address/u);
    expect(client.getMutationCache().getAll()).toHaveLength(0);
  });

  it('asks for both names when one word is given as the name', async () => {
    const client = show();
    await userEvent.type(screen.getByLabelText('E-mail'), 'jane.doe@example.com');
    await userEvent.type(screen.getByLabelText('Name (first and last, optional)'), 'Jane');
    await userEvent.click(screen.getByRole('button', { name: 'Find' }));
    expect(screen.getByRole('alert').textContent).toMatch(/both the first and the last name/u);
    expect(client.getMutationCache().getAll()).toHaveLength(0);
  });
});
