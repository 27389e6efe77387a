import type { CaseVerdict, SuiteRunSummary } from '@/domain/suite-run';
import { caseVerdictLabels } from '@/domain/suite-run';
import { StatusBadge, type Tone } from '@/shared/ui/status-badge';

/** How each verdict reads: a case that broke stands out, one passing as before does not. */
export const verdictTone: Record<CaseVerdict, Tone> = {
  'newly-failing': 'error',
  'still-failing': 'warning',
  fixed: 'success',
  passing: 'neutral',
  new: 'pending',
};

/** A run's outcome in a few words: its state, how many passed, and what changed since the last. */
export function RunOutcome({ run }: { run: SuiteRunSummary }) {
  const badge =
    run.status === 'running' ? (
      <StatusBadge tone="pending">{`Running ${run.casesDone}/${run.casesTotal}`}</StatusBadge>
    ) : run.status === 'interrupted' ? (
      <StatusBadge tone="warning">{`Interrupted ${run.casesDone}/${run.casesTotal}`}</StatusBadge>
    ) : run.failed === 0 ? (
      <StatusBadge tone="success">{`Passed ${run.passed}/${run.casesTotal}`}</StatusBadge>
    ) : (
      <StatusBadge tone="error">{`Failed ${run.failed}/${run.casesTotal}`}</StatusBadge>
    );
  const changes = run.verdicts
    ? (['newly-failing', 'fixed'] as const)
        .filter((verdict) => (run.verdicts?.[verdict] ?? 0) > 0)
        .map(
          (verdict) =>
            `${run.verdicts?.[verdict] ?? 0} ${caseVerdictLabels[verdict].toLowerCase()}`,
        )
    : [];
  return (
    <>
      {badge}
      {changes.length > 0 ? <span className="inspector__flag"> {changes.join(', ')}</span> : null}
    </>
  );
}
