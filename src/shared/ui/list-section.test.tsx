// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable } from './data-table';
import { ListSection, type PagedQueryState } from './list-section';

afterEach(cleanup);

const rows = [
  { id: 1, name: 'Ada', at: '2026-11-21T09:30:00Z' },
  { id: 2, name: 'Grace', at: '2026-11-21T09:31:00Z' },
];

function show(query: PagedQueryState, count = rows.length) {
  render(
    <ListSection
      heading="Calls"
      query={query}
      count={count}
      one="call"
      many="calls"
      reading="Reading the journal…"
      empty="No call recorded yet."
      older="Show older calls"
    >
      <DataTable
        rows={rows.slice(0, count)}
        rowKey={(row) => row.id}
        isCurrent={(row) => row.id === 2}
        columns={[
          { heading: 'Name', className: 'user-text', cell: (row) => row.name },
          {
            heading: 'Action',
            headingHidden: true,
            cell: (row) => <button type="button">Open {row.name}</button>,
          },
        ]}
      />
    </ListSection>,
  );
}

const settled = { isPending: false, isError: false, error: null, isFetchingNextPage: false };

describe('ListSection', () => {
  it('is a region named by its heading, with the list and Show older while more pages follow', async () => {
    const fetchNextPage = vi.fn();
    show({ ...settled, hasNextPage: true, fetchNextPage });
    const region = screen.getByRole('region', { name: 'Calls' });
    expect(region.contains(screen.getByRole('table'))).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('2 calls shown, more below');
    await userEvent.click(screen.getByRole('button', { name: 'Show older calls' }));
    expect(fetchNextPage).toHaveBeenCalledTimes(1);
  });

  it('says Loading… on a disabled button while the next page is read, and nothing once all are', () => {
    show({ ...settled, hasNextPage: true, isFetchingNextPage: true, fetchNextPage: vi.fn() });
    const button = screen.getByRole('button', { name: 'Loading…' });
    expect(button.hasAttribute('disabled')).toBe(true);
    cleanup();
    show({ ...settled, hasNextPage: false, fetchNextPage: vi.fn() });
    expect(screen.queryByRole('button', { name: /Show older|Loading/ })).toBeNull();
  });

  it('shows no table for an empty list, only what empty means', () => {
    show({ ...settled, hasNextPage: false, fetchNextPage: vi.fn() }, 0);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('No call recorded yet.');
  });
});

describe('DataTable', () => {
  it('heads each column, hides an action column’s heading from sight only, and marks the current row', () => {
    show({ ...settled, hasNextPage: false, fetchNextPage: vi.fn() });
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Name',
      'Action',
    ]);
    expect(screen.getByText('Action').className).toBe('visually-hidden');
    const [, first, second] = screen.getAllByRole('row');
    expect(first?.getAttribute('aria-current')).toBeNull();
    expect(second?.getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('cell', { name: 'Grace' }).className).toBe('user-text');
    expect(screen.getByRole('button', { name: 'Open Ada' }).tagName).toBe('BUTTON');
  });

  it('names each row by its row-header column and the table by the heading it is given', () => {
    render(
      <section>
        <h2 id="log-heading">Delivery log</h2>
        <p>Failures first.</p>
        <DataTable
          rows={rows}
          rowKey={(row) => row.id}
          labelledBy="log-heading"
          columns={[
            { heading: 'Name', rowHeader: true, cell: (row) => row.name },
            { heading: 'At', cell: (row) => row.at },
          ]}
        />
      </section>,
    );
    expect(screen.getByRole('table', { name: 'Delivery log' }).tagName).toBe('TABLE');
    expect(screen.getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual([
      'Ada',
      'Grace',
    ]);
    expect(screen.getByRole('rowheader', { name: 'Ada' }).getAttribute('scope')).toBe('row');
    expect(screen.getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      '2026-11-21T09:30:00Z',
      '2026-11-21T09:31:00Z',
    ]);
  });

  it('shows the caption it is given, which names the table', () => {
    render(
      <DataTable
        rows={rows}
        rowKey={(row) => row.id}
        caption="Where they are held"
        columns={[{ heading: 'Name', cell: (row) => row.name }]}
      />,
    );
    const table = screen.getByRole('table', { name: 'Where they are held' });
    expect(table.querySelector('caption')?.textContent).toBe('Where they are held');
    expect(screen.getAllByRole('row').map((row) => row.textContent)).toEqual([
      'Name',
      'Ada',
      'Grace',
    ]);
  });
});
