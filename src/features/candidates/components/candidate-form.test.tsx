// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CandidateForm } from '@/domain';
import { candidateFormDefaults } from '@/domain';
import type { CandidateWarning } from '@/features/candidates/model/candidate-warnings';
import type { TargetRequisition } from '@/features/candidates/model/target-requisition';
import type { WarningFields } from './candidate-form';
import { CandidateFormView, useCandidateForm } from './candidate-form';

const requisition: TargetRequisition = {
  reqId: '40001',
  title: 'Senior Java Developer',
  clientInternalReq: 'NW-REQ-0001',
  status: '4',
  statusLabel: 'Open',
  openings: '2',
  startDate: '2026-03-01',
  endDate: '2026-12-31',
  noNewSubmittalsAfter: '2030-12-31',
  hourlyHigh: '95.00',
  hourlyLow: '75.00',
  maximumBillRate: '1',
  skills: [
    { description: 'Java 17', level: 'Required', experience: '5 Years' },
    { description: 'PostgreSQL', level: 'Desired', experience: '' },
  ],
  questions: ['Are you authorised to work in the US?'],
  shape: { skillCount: 2, questionCount: 1 },
};

const noWarnings = () => [];

function Harness({
  onValid,
  target = requisition,
  warningsFor = noWarnings,
}: {
  onValid(values: CandidateForm): void;
  target?: TargetRequisition | null;
  warningsFor?(fields: WarningFields): CandidateWarning[];
}) {
  const shape = target?.shape ?? { skillCount: 0, questionCount: 0 };
  const form = useCandidateForm(candidateFormDefaults(shape, '40001'), target?.shape);
  return (
    <CandidateFormView
      form={form}
      requisition={target}
      submitLabel="Add to batch"
      warningsFor={warningsFor}
      onValid={onValid}
    />
  );
}

async function fillRequired(user: ReturnType<typeof userEvent.setup>, email = 'ada@example.com') {
  await user.type(screen.getByLabelText(/^First name/), 'Ada');
  await user.type(screen.getByLabelText(/^Last name/), 'Lovelace');
  await user.type(screen.getByLabelText(/^E-mail/), email);
  await user.selectOptions(screen.getByLabelText(/^Engagement type/), '1');
}

afterEach(cleanup);

describe('CandidateFormView', () => {
  it('has one row per skill and question of the requisition, showing what each asks', () => {
    render(<Harness onValid={vi.fn()} />);
    const skill = screen.getByRole('group', { name: 'Skill 1: Java 17' });
    expect(skill.textContent).toContain('Required · 5 Years of experience asked for');
    expect(
      within(skill)
        .getByLabelText(/^Skill 1 response/)
        .getAttribute('name'),
    ).toBe('skillResponses.0.response');
    // One group per skill of the requisition (it has two).
    expect(screen.getAllByRole('group', { name: /^Skill \d: / })).toHaveLength(2);
    expect(screen.queryByLabelText(/^Skill 3 response/)).toBeNull();
    const answer = screen.getByLabelText(/^Answer to question 1/);
    expect(answer.getAttribute('aria-describedby')).toContain('hint');
    expect(
      document.getElementById(answer.getAttribute('aria-describedby')?.split(' ')[0] ?? '')
        ?.textContent,
    ).toBe('Are you authorised to work in the US?');
    expect(screen.queryByLabelText(/^Answer to question 2/)).toBeNull();
    expect(screen.queryByRole('button', { name: /^Add a/ })).toBeNull();
  });

  it('offers generic rows, added by the user, for a requisition it does not know', async () => {
    const user = userEvent.setup();
    render(<Harness onValid={vi.fn()} target={null} />);
    await user.click(screen.getByRole('button', { name: 'Add a question answer' }));
    expect(screen.getByLabelText(/^Answer to question 1/).getAttribute('name')).toBe(
      'answers.0.answer',
    );
    expect(screen.queryByLabelText(/^Answer to question 2/)).toBeNull();
    expect(screen.getByText(/skill responses\.$/).textContent).toBe(
      '0 of at most 10 skill responses.',
    );
  });

  it('asks for the citizenship explanation only for Other, and then requires it', async () => {
    const onValid = vi.fn();
    const user = userEvent.setup();
    render(<Harness onValid={onValid} />);
    expect(screen.queryByLabelText(/^Citizenship explanation/)).toBeNull();
    await fillRequired(user);
    await user.selectOptions(screen.getByLabelText(/^Citizenship status/), 'Other');
    expect(screen.getByLabelText(/^Citizenship explanation/).getAttribute('name')).toBe(
      'candcitizenshipexplain',
    );
    await user.click(screen.getByRole('button', { name: 'Add to batch' }));
    const summary = await screen.findByRole('alert');
    expect(summary.textContent).toContain('Citizenship explanation is required');
    expect(onValid).not.toHaveBeenCalled();
  });

  it('blocks an invalid e-mail inline and in the summary', async () => {
    const onValid = vi.fn();
    const user = userEvent.setup();
    render(<Harness onValid={onValid} />);
    await fillRequired(user, 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Add to batch' }));
    const summary = await screen.findByRole('alert');
    expect(document.activeElement).toBe(summary);
    expect(screen.getByLabelText(/^E-mail/).getAttribute('aria-invalid')).toBe('true');
    expect(onValid).not.toHaveBeenCalled();
  });

  it('adds a valid candidate only once its warnings are acknowledged', async () => {
    const onValid = vi.fn();
    const user = userEvent.setup();
    const warningsFor = (fields: WarningFields): CandidateWarning[] =>
      fields.candemail.startsWith('ada')
        ? [{ id: 'already-submitted', message: 'ada was already sent to requisition 40001' }]
        : [];
    render(<Harness onValid={onValid} warningsFor={warningsFor} />);
    await fillRequired(user);
    expect(screen.getByRole('region', { name: 'Check this before adding' }).textContent).toContain(
      'ada was already sent',
    );
    await user.click(screen.getByRole('button', { name: 'Add to batch' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'ada was already sent to requisition 40001',
    );
    expect(onValid).not.toHaveBeenCalled();

    await user.click(screen.getByRole('checkbox', { name: /^I have read this warning/ }));
    await user.click(screen.getByRole('button', { name: 'Add to batch' }));
    expect(onValid).toHaveBeenCalledTimes(1);
    expect(onValid.mock.calls[0]?.[0]).toMatchObject({ candemail: 'ada@example.com' });
  });
});
