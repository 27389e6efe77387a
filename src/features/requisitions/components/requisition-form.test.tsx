// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FormJsonPreview } from '@/core/batch/components/form-json-preview';
import type { RequisitionForm, RequisitionRecord } from '@/domain';
import {
  MAX_SKILLS,
  requisitionField,
  requisitionFormDefaults,
  requisitionRecordSchema,
} from '@/domain';
import type { RequisitionMode } from '@/features/requisitions/model/form-layout';
import { listSource, requisitionListQueryOptions } from '@/shared/requisitions';
import { RequisitionFormView, useRequisitionForm } from './requisition-form';

const orgs = { clientOrgId: 1001, vendorOrgId: 9001 };

function Harness({
  onValid,
  mode = 'insert',
  values,
}: {
  onValid(values: RequisitionForm): void;
  mode?: RequisitionMode;
  values?: RequisitionForm;
}) {
  const form = useRequisitionForm(values ?? { ...requisitionFormDefaults('I'), orgid: '1001' });
  return (
    <RequisitionFormView
      preview={(toWire) => <FormJsonPreview toWire={toWire} fileName="requisition.json" />}
      form={form}
      mode={mode}
      orgs={orgs}
      dateFormat="YYYY-MM-DD"
      submitLabel="Add to batch"
      onValid={onValid}
    />
  );
}

export function renderForm(ui: React.ReactElement, listed: RequisitionRecord[] = []) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The suggestions read the requisition list; give it one so nothing is fetched.
  client.setQueryData(requisitionListQueryOptions(orgs, listSource(undefined)).queryKey, listed);
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('RequisitionFormView, submitting with errors', () => {
  it('shows each problem inline and in a summary that takes focus, and does not call the handler', async () => {
    const onValid = vi.fn();
    const user = userEvent.setup();
    renderForm(<Harness onValid={onValid} />);

    await user.click(screen.getByRole('button', { name: 'Add to batch' }));

    const summary = await screen.findByRole('alert');
    expect(within(summary).getByRole('heading').textContent).toBe('There is a problem');
    expect(document.activeElement).toBe(summary);
    const links = within(summary).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toContain('Job title is required for Insert');
    expect(links.map((link) => link.textContent)).toContain(
      'A requisition owner is required for Insert: give the owner ID, or both first and last name',
    );

    const title = screen.getByLabelText(/^Job title/);
    expect(title.getAttribute('aria-invalid')).toBe('true');
    const described = (title.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '');
    expect(described).toContain('Error: Job title is required for Insert');
    expect(onValid).not.toHaveBeenCalled();
  });

  it('moves focus to the field when a summary link is followed', async () => {
    const user = userEvent.setup();
    renderForm(<Harness onValid={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Add to batch' }));
    const summary = await screen.findByRole('alert');
    await user.click(
      within(summary).getByRole('link', { name: 'Job title is required for Insert' }),
    );
    expect(document.activeElement).toBe(screen.getByLabelText(/^Job title/));
  });

  it('clears a field’s message as it is corrected', async () => {
    const user = userEvent.setup();
    renderForm(<Harness onValid={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Add to batch' }));
    await screen.findByRole('alert');
    const title = screen.getByLabelText(/^Job title/);
    const describedBy = () => title.getAttribute('aria-describedby')?.split(' ') ?? [];
    expect(describedBy()).toContain(title.id + '-error');
    await user.type(title, 'QA Analyst');
    await waitFor(() => expect(title.getAttribute('aria-invalid')).toBeNull());
    // The corrected message keeps its line (and its text, for Chromium's autofill, decision 022),
    // all of it hidden from assistive technology: the field's description says nothing of it.
    const line = document.getElementById(title.id + '-error');
    expect(line?.textContent).toBe('Error: Job title is required for Insert');
    expect([...(line?.children ?? [])].map((part) => part.getAttribute('aria-hidden'))).toEqual([
      'true',
    ]);
    expect(line?.childNodes).toHaveLength(1);
    expect(screen.getByLabelText(/^Number of openings/).getAttribute('aria-invalid')).toBe('true');
  });

  it('hands a valid Insert to the handler, with the alternative in use', async () => {
    const onValid = vi.fn();
    const user = userEvent.setup();
    renderForm(<Harness onValid={onValid} />);
    await user.type(screen.getByLabelText(/^Job title/), 'QA Analyst');
    await user.type(screen.getByLabelText(/^Number of openings/), '2');
    await user.type(screen.getByLabelText(/^Client internal req/), 'CIR-1');
    await user.selectOptions(screen.getByLabelText(/^Engagement type/), 'Contract (1)');
    await user.type(screen.getByLabelText(/^Req class ID/), '102');
    await user.type(screen.getByLabelText(/^Hours per day/), '8');
    await user.type(screen.getByLabelText(/^Days per week/), '5');
    await user.type(screen.getByLabelText(/^Short description/), 'Tests things.');
    const owner = screen.getByRole('group', { name: /Requisition owner/ });
    await user.click(within(owner).getByLabelText('By first and last name'));
    await user.type(within(owner).getByLabelText(/^Requisition owner first name/), 'Maria');
    await user.type(within(owner).getByLabelText(/^Requisition owner last name/), 'Reyes');
    await user.click(screen.getByRole('button', { name: 'Add to batch' }));

    await waitFor(() => expect(onValid).toHaveBeenCalledTimes(1));
    const values = onValid.mock.calls[0]?.[0] as RequisitionForm;
    expect(values.titlerole).toBe('QA Analyst');
    expect(values.reqownerBy).toBe('name');
    expect(values.reqownerfirstname).toBe('Maria');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers Status on Amend only', () => {
    renderForm(<Harness onValid={vi.fn()} />);
    expect(screen.queryByLabelText(/^Status/)).toBeNull();
    cleanup();
    renderForm(
      <Harness
        onValid={vi.fn()}
        mode="amend"
        values={{ ...requisitionFormDefaults('A'), orgid: '1001' }}
      />,
    );
    const status = screen.getByLabelText(/^Status/);
    expect(within(status).getByRole('option', { name: 'On Hold (9)' }).getAttribute('value')).toBe(
      '9',
    );
  });

  it('labels the bill rates as the spec defines them', () => {
    renderForm(<Harness onValid={vi.fn()} />);
    expect(screen.getByLabelText(/^Bill rate, hourly high/).getAttribute('name')).toBe(
      'billrangefrom',
    );
    expect(screen.getByLabelText(/^Bill rate, hourly low/).getAttribute('name')).toBe(
      'billrangeto',
    );
  });
});

describe('RequisitionFormView, skill rows', () => {
  const skillGroup = (n: number) => screen.getByRole('group', { name: `Skill ${n}` });

  it('adds, removes and moves rows, renumbering their wire names', async () => {
    const user = userEvent.setup();
    renderForm(<Harness onValid={vi.fn()} />);
    const add = screen.getByRole('button', { name: 'Add a skill' });
    for (const text of ['Java', 'SQL', 'Kubernetes']) {
      await user.click(add);
      // The new row's description takes focus.
      await user.keyboard(text);
    }
    expect(screen.getAllByRole('group', { name: /^Skill \d+$/ })).toHaveLength(3);

    await user.click(within(skillGroup(2)).getByRole('button', { name: 'Remove Skill 2' }));
    expect(screen.getAllByRole('group', { name: /^Skill \d+$/ })).toHaveLength(2);
    const second = within(skillGroup(2)).getByLabelText(/^Skill 2 description · skilldescription2/);
    expect((second as HTMLTextAreaElement).value).toBe('Kubernetes');

    await user.click(within(skillGroup(2)).getByRole('button', { name: 'Move up Skill 2' }));
    expect(
      (within(skillGroup(1)).getByLabelText(/^Skill 1 description/) as HTMLTextAreaElement).value,
    ).toBe('Kubernetes');
    expect(
      (within(skillGroup(2)).getByLabelText(/^Skill 2 description/) as HTMLTextAreaElement).value,
    ).toBe('Java');
    // At the top, Move up stays focusable but does nothing.
    const up = within(skillGroup(1)).getByRole('button', { name: 'Move up Skill 1' });
    expect(up.getAttribute('aria-disabled')).toBe('true');
    await user.click(up);
    expect(
      (within(skillGroup(1)).getByLabelText(/^Skill 1 description/) as HTMLTextAreaElement).value,
    ).toBe('Kubernetes');
  });

  it('stops at 10 skills with the add button disabled, saying why', async () => {
    const user = userEvent.setup();
    renderForm(<Harness onValid={vi.fn()} />);
    const add = screen.getByRole('button', { name: 'Add a skill' });
    for (let i = 0; i < MAX_SKILLS; i += 1) await user.click(add);
    expect(screen.getAllByRole('group', { name: /^Skill \d+$/ })).toHaveLength(MAX_SKILLS);
    expect((add as HTMLButtonElement).disabled).toBe(true);
    const reason = (add.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
    expect(reason).toMatch(/A requisition can have at most 10 skills: remove one to add another/);

    await user.click(within(skillGroup(4)).getByRole('button', { name: 'Remove Skill 4' }));
    expect((add as HTMLButtonElement).disabled).toBe(false);
  });

  it('stops at 5 questions', async () => {
    const user = userEvent.setup();
    renderForm(<Harness onValid={vi.fn()} />);
    const add = screen.getByRole('button', { name: 'Add a question' });
    for (let i = 0; i < 5; i += 1) await user.click(add);
    expect((add as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('RequisitionFormView, one source for the kind of control', () => {
  it('draws a text area exactly for the fields the catalog marks multiline, rows included', async () => {
    const user = userEvent.setup();
    renderForm(<Harness onValid={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Add a skill' }));
    await user.click(screen.getByRole('button', { name: 'Add a question' }));

    const drawn = [...document.querySelectorAll('.field')].map((field) => {
      const wireName = field.querySelector('.wire-name')?.textContent?.replace('· ', '') ?? '';
      const def = requisitionField(wireName);
      return {
        wireName,
        known: def !== undefined,
        textArea: field.querySelector('textarea') !== null,
        multiline: def?.multiline === true,
      };
    });
    expect(drawn.filter((field) => !field.known)).toEqual([]);
    expect(drawn.filter((field) => field.textArea !== field.multiline)).toEqual([]);
    // The rows' free text is among them: the plain page of the benchmark reads the same catalog.
    expect(drawn.filter((field) => field.textArea).map((field) => field.wireName)).toEqual(
      expect.arrayContaining(['skilldescription1', 'questiondescription1', 'shortdescription']),
    );
  });
});

describe('RequisitionFormView, suggestions', () => {
  const offered = (input: HTMLElement) =>
    [...(document.getElementById(input.getAttribute('list') ?? '')?.children ?? [])].map(
      (option) => (option as HTMLOptionElement).value,
    );
  const optionsInPage = () => document.querySelectorAll('datalist option').length;

  it('puts options only in the list of the focused input', async () => {
    const user = userEvent.setup();
    const listed = [
      { Req_Id: '1', DivBranch: 'CC-7', OrgId: '1001' },
      { Req_Id: '2', DivBranch: 'CC-9', OrgId: '1001' },
      { Req_Id: '3', DivBranch: 'CC-9', OrgId: '1001' },
    ].map((raw) => requisitionRecordSchema.parse(raw));
    renderForm(<Harness onValid={vi.fn()} />, listed);
    const divbranch = screen.getByLabelText(/· divbranch/);
    const orgid = screen.getByLabelText(/· orgid/);
    expect(optionsInPage()).toBe(0);

    await user.click(divbranch);
    expect(offered(divbranch)).toEqual(['CC-9', 'CC-7']);
    expect(optionsInPage()).toBe(2);

    await user.click(orgid);
    expect(offered(orgid)).toEqual(['1001']);
    expect(offered(divbranch)).toEqual([]);

    await user.click(screen.getByLabelText(/· titlerole/));
    expect(optionsInPage()).toBe(0);
  });
});

describe('RequisitionFormView, nothing locked from layout', () => {
  it('shows its JSON from a button, made only while shown, and holds no closed <details>', async () => {
    // Chromium copies the whole form for autofill on each keystroke, and while the page holds
    // content locked from layout (a closed <details>) that copy costs more per field (decision 022).
    const user = userEvent.setup();
    const { container } = renderForm(<Harness onValid={vi.fn()} />);
    expect(container.querySelector('details')).toBeNull();
    const toggle = await screen.findByRole('button', { name: 'JSON of this form' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region', { name: 'JSON of this form' })).toBeNull();

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const json = screen.getByRole('region', { name: 'JSON of this form' });
    expect(toggle.getAttribute('aria-controls')).toBe(json.parentElement?.id);
    expect(json.textContent).toContain('"titlerole"');

    await user.click(toggle);
    expect(screen.queryByRole('region', { name: 'JSON of this form' })).toBeNull();
  });
});
