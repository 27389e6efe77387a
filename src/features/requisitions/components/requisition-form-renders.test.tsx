// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ProfilerOnRenderCallback } from 'react';
import { Profiler } from 'react';
import { FormProvider } from 'react-hook-form';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requisitionCatalog, requisitionFormDefaults } from '@/domain';
import { listSource, requisitionListQueryOptions } from '@/shared/requisitions';
import { RequisitionField } from './form-fields';
import { RequisitionFormView, useRequisitionForm } from './requisition-form';

/**
 * "typing into one field does not re-render the other fields", measured with React's
 * Profiler (its onRender runs once per commit of the tree it wraps, in development builds).
 */
const orgs = { clientOrgId: 1001, vendorOrgId: 9001 };
const blank = () => ({ ...requisitionFormDefaults('I'), orgid: '1001' });

function withQueries(ui: React.ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(requisitionListQueryOptions(orgs, listSource(undefined)).queryKey, []);
  return <QueryClientProvider client={client}>{ui}</QueryClientProvider>;
}

function WholeForm({ onRender }: { onRender: ProfilerOnRenderCallback }) {
  const form = useRequisitionForm(blank());
  return (
    <Profiler id="form" onRender={onRender}>
      <RequisitionFormView
        form={form}
        mode="insert"
        orgs={orgs}
        dateFormat="YYYY-MM-DD"
        submitLabel="Add to batch"
        onValid={vi.fn()}
      />
    </Profiler>
  );
}

/** Every scalar field of the form, each in its own Profiler, with the real form hook. */
const scalarDefs = requisitionCatalog.filter(
  (def) => def.key !== 'requesttype' && def.key !== 'reqstatus' && !def.row,
);

function FieldByField({ onRender }: { onRender: ProfilerOnRenderCallback }) {
  const form = useRequisitionForm(blank());
  return (
    <FormProvider {...form}>
      <form noValidate onSubmit={(event) => void form.handleSubmit(vi.fn(), vi.fn())(event)}>
        {scalarDefs.map((def) => (
          <Profiler key={def.key} id={def.key} onRender={onRender}>
            <RequisitionField def={def} mode="insert" />
          </Profiler>
        ))}
        <button type="submit">Check</button>
      </form>
    </FormProvider>
  );
}

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('re-render isolation', () => {
  it('typing into Job title commits nothing in the whole form (clean form)', async () => {
    const commits: string[] = [];
    const user = userEvent.setup();
    render(withQueries(<WholeForm onRender={(id) => commits.push(id)} />));
    const title = screen.getByLabelText(/^Job title/);
    commits.length = 0;

    await user.type(title, 'Senior Java Developer');

    expect((title as HTMLInputElement).value).toBe('Senior Java Developer');
    expect(commits).toHaveLength(0);
  });

  it('while errors are shown, typing re-renders only the field typed into', async () => {
    const rendered = new Map<string, number>();
    const user = userEvent.setup();
    render(<FieldByField onRender={(id) => rendered.set(id, (rendered.get(id) ?? 0) + 1)} />);
    expect(rendered.size).toBe(scalarDefs.length);

    await user.click(screen.getByRole('button', { name: 'Check' }));
    const title = screen.getByLabelText(/^Job title/);
    await waitFor(() => expect(title.getAttribute('aria-invalid')).toBe('true'));
    rendered.clear();

    await user.type(title, 'QA Analyst');
    await waitFor(() => expect(title.getAttribute('aria-invalid')).toBeNull());

    // Only Job title re-rendered (its message went away); the other fields did not.
    expect([...rendered.keys()]).toEqual(['titlerole']);
    expect(rendered.get('titlerole')).toBeLessThanOrEqual(2);
    expect(screen.getByLabelText(/^Number of openings/).getAttribute('aria-invalid')).toBe('true');
  });
});
