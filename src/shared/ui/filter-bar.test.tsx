// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { DateRange, FilterBar, FilterInput, FilterSelect, useAddressFilters } from './filter-bar';

afterEach(cleanup);

const keys = ['q', 'method', 'from', 'to'] as const;

function Calls() {
  const state = useAddressFilters(keys, ['id']);
  const location = useLocation();
  return (
    <>
      <FilterBar label="Filter the calls" submit="Show calls" state={state}>
        <FilterInput name="q" label="Words in the bodies" type="search" />
        <FilterSelect
          name="method"
          label="Method"
          options={[
            { value: 'GET', label: 'GET' },
            { value: 'POST', label: 'POST' },
          ]}
        />
        <DateRange />
      </FilterBar>
      <output aria-label="Address">{location.search}</output>
    </>
  );
}

const address = () => screen.getByRole('status', { name: 'Address' }).textContent;

function open(search: string) {
  render(
    <MemoryRouter initialEntries={[`/inspector${search}`]}>
      <Calls />
    </MemoryRouter>,
  );
}

describe('FilterBar', () => {
  it('starts each labelled field from the address, and offers Clear only once a filter is set', () => {
    open('?method=POST&from=2026-11-01');
    expect(screen.getByRole('form', { name: 'Filter the calls' })).not.toBeNull();
    expect(screen.getByLabelText<HTMLSelectElement>('Method').value).toBe('POST');
    expect(screen.getByLabelText<HTMLInputElement>('From').value).toBe('2026-11-01');
    expect(screen.getByLabelText<HTMLInputElement>('Words in the bodies').value).toBe('');
    expect(screen.getByRole('option', { name: 'Any', selected: false })).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Clear filters' })).not.toBeNull();
    cleanup();
    open('');
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
  });

  it('puts the submitted filters in the address, dropping empty ones and the open call', async () => {
    open('?id=7&to=2026-11-30');
    await userEvent.type(screen.getByLabelText('Words in the bodies'), 'REQ-1');
    await userEvent.selectOptions(screen.getByLabelText('Method'), 'GET');
    await userEvent.clear(screen.getByLabelText('To'));
    await userEvent.click(screen.getByRole('button', { name: 'Show calls' }));
    expect(address()).toBe('?q=REQ-1&method=GET');
  });

  it('clears every filter and the open call', async () => {
    open('?id=7&method=GET&q=x&other=kept');
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(address()).toBe('?other=kept');
    expect(screen.getByLabelText<HTMLSelectElement>('Method').value).toBe('');
  });
});
