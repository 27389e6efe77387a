import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldErrors, FieldValues } from 'react-hook-form';
import type { FormProblem } from './field-ids';
import { fieldId, flattenErrors } from './field-ids';

export interface ErrorSummaryProps {
  problems: readonly FormProblem[];
  /** Changes on every failed submit, so focus moves to the summary each time. */
  attempt: number;
}

/** Moves focus to an element and brings it, with its label, into view. */
export function focusElement(element: HTMLElement): void {
  element.focus({ preventScroll: true });
  const label = element.closest('.field, fieldset') ?? element;
  // Optional: not every environment (jsdom) lays pages out.
  label.scrollIntoView?.({ block: 'center' });
}

/** Moves focus to a field and brings its label into view, as the GOV.UK summary links do. */
export function focusField(name: string): void {
  const element = document.getElementById(fieldId(name));
  if (element) focusElement(element);
}

/**
 * The GOV.UK Design System error summary
 * (https://design-system.service.gov.uk/components/error-summary/): after a submit attempt, at
 * the top of the form, a heading "There is a problem" and every problem as a link to its field;
 * focus moves to it so screen reader users hear it at once. It lists the problems found at the
 * submit and is not re-rendered while the user types (the inline messages are live).
 */
export function ErrorSummary({ problems, attempt }: ErrorSummaryProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (attempt > 0 && problems.length > 0) ref.current?.focus();
  }, [attempt, problems.length]);

  if (problems.length === 0) return null;
  return (
    <div
      ref={ref}
      className="error-summary"
      role="alert"
      aria-labelledby="error-summary-title"
      tabIndex={-1}
    >
      <h2 id="error-summary-title" className="error-summary__title">
        There is a problem
      </h2>
      <p className="error-summary__intro">
        {problems.length === 1
          ? 'Fix this problem, then try again:'
          : `Fix these ${problems.length} problems, then try again:`}
      </p>
      <ul className="error-summary__list">
        {problems.map((problem) => (
          <li key={problem.name}>
            <a
              href={`#${fieldId(problem.name)}`}
              onClick={(event) => {
                event.preventDefault();
                focusField(problem.name);
              }}
            >
              {problem.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Orders problems as their fields appear on the page (the summary reads top to bottom). */
export function inPageOrder(problems: readonly FormProblem[]): FormProblem[] {
  const position = (problem: FormProblem) => document.getElementById(fieldId(problem.name));
  return [...problems].sort((a, b) => {
    const left = position(a);
    const right = position(b);
    if (!left || !right) return left ? -1 : right ? 1 : 0;
    return left.compareDocumentPosition(right) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  });
}

/**
 * What a form's error summary lists, kept between renders: the problems found at the last submit
 * and how many submits have failed. `onInvalid` is react-hook-form's handler for a submit with
 * errors; `report` lists problems the page finds itself (a warning not acknowledged); `clear`
 * empties the list after a good submit. `props(flagged)` is for ErrorSummary: before any submit,
 * the field the VMS named when it refused the item.
 */
export function useSubmitSummary<V extends FieldValues>() {
  const [summary, setSummary] = useState<{ problems: FormProblem[]; attempt: number }>({
    problems: [],
    attempt: 0,
  });
  const report = useCallback((problems: FormProblem[]) => {
    setSummary((current) => ({ problems, attempt: current.attempt + 1 }));
  }, []);
  const onInvalid = useCallback(
    (errors: FieldErrors<V>) => report(inPageOrder(flattenErrors(errors))),
    [report],
  );
  const clear = useCallback(() => {
    setSummary((current) => ({ problems: [], attempt: current.attempt }));
  }, []);
  const props = (flagged: FormProblem | null): ErrorSummaryProps => ({
    problems: summary.attempt === 0 && flagged ? [flagged] : summary.problems,
    attempt: summary.attempt,
  });
  return { onInvalid, report, clear, props };
}
