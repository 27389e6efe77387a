import type { CandidateWarning } from '@/features/candidates/model/candidate-warnings';
import { errorId, fieldId } from '@/shared/form/field-ids';

/** The acknowledgement's form name: the error summary links to it like to any field. */
export const acknowledgeName = 'acknowledgeWarnings';

/**
 * Warnings do not block: the VMS has the last word (a requisition may have reopened). They are
 * listed before the submit button, and one tick acknowledges exactly the warnings shown; a new
 * warning needs a new tick.
 */
export function CandidateWarnings({
  warnings,
  acknowledged,
  missing,
  onAcknowledge,
}: {
  warnings: readonly CandidateWarning[];
  acknowledged: boolean;
  missing: boolean;
  onAcknowledge(checked: boolean): void;
}) {
  if (warnings.length === 0) return null;
  const id = fieldId(acknowledgeName);
  return (
    <section className="notice notice--warning" aria-labelledby="candidate-warnings-title">
      <h2 id="candidate-warnings-title" className="notice__title">
        {warnings.length === 1
          ? 'Check this before adding'
          : `Check these ${warnings.length} things before adding`}
      </h2>
      <ul>
        {warnings.map((warning) => (
          <li key={warning.id}>{warning.message}</li>
        ))}
      </ul>
      <div className={`field${missing ? ' field--error' : ''}`}>
        <label htmlFor={id} className="checkbox">
          <input
            id={id}
            type="checkbox"
            checked={acknowledged}
            aria-invalid={missing || undefined}
            aria-describedby={errorId(acknowledgeName)}
            onChange={(event) => onAcknowledge(event.target.checked)}
          />{' '}
          I have read {warnings.length === 1 ? 'this warning' : 'these warnings'} and want to add
          the candidate anyway
        </label>
        <p id={errorId(acknowledgeName)} className="field__error">
          {missing ? (
            <>
              <span className="visually-hidden">Error: </span>
              Tick this box to add the candidate anyway, or change what the warnings point to.
            </>
          ) : null}
        </p>
      </div>
    </section>
  );
}
