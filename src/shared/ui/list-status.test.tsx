// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/domain/api-error';
import { ListStatus, type ListQueryState } from './list-status';

afterEach(cleanup);

const settled: ListQueryState = { isPending: false, isError: false, error: null };

function show(query: ListQueryState, count: number, empty = 'No call recorded yet.') {
  render(
    <ListStatus
      query={query}
      count={count}
      one="call"
      many="calls"
      reading="Reading the journal…"
      empty={empty}
    />,
  );
}

describe('ListStatus', () => {
  it('says it is reading, then how many, grouped, and whether more follow', () => {
    show({ ...settled, isPending: true }, 0);
    expect(screen.getByRole('status').textContent).toBe('Reading the journal…');
    cleanup();
    show(settled, 1);
    expect(screen.getByRole('status').textContent).toBe('1 call');
    cleanup();
    show({ ...settled, hasNextPage: true }, 1200);
    expect(screen.getByRole('status').textContent).toBe('1,200 calls shown, more below');
  });

  it('says what an empty list means here', () => {
    show(settled, 0, 'No call matches these filters.');
    expect(screen.getByRole('status').textContent).toBe('No call matches these filters.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('gives the reason a list could not be read, and Try again reads it again', async () => {
    const refetch = vi.fn();
    const error = new ApiError('store_unavailable', 'The journal could not be read.');
    show({ isPending: false, isError: true, error, refetch }, 0);
    expect(screen.getByRole('status').textContent).toBe('');
    expect(screen.getByRole('alert').textContent).toContain('The journal could not be read.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('offers no Try again where the page has no way to read it again', () => {
    show({ isPending: false, isError: true, error: new Error('The portal did not answer.') }, 0);
    expect(screen.getByRole('alert').textContent).toBe('The portal did not answer.');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
