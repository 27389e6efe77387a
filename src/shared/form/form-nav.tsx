import { useEffect, useRef, useState } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { useFormContext } from 'react-hook-form';
import { countOf } from '@/shared/lib/format';
import { focusElement } from './error-summary';
import { flattenErrors } from './field-ids';

/**
 * Moves focus to the element with this id as soon as it is in the page (within about two
 * seconds of frames). A long form draws its lower sections just after its first paint, and a
 * section chosen in that moment still gets focus instead of a bare jump to the link's anchor.
 */
async function focusWhenDrawn(id: string): Promise<void> {
  for (let frame = 0; frame < 120; frame += 1) {
    const element = document.getElementById(id);
    if (element) {
      focusElement(element);
      return;
    }
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
}

export interface NavSection {
  /** The element id of the section's heading (focused when chosen). */
  id: string;
  title: string;
}

/** The id a form section's heading carries, for the navigation to reach it. */
export const sectionHeadingId = (title: string) =>
  `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** How many problems each section has, with a key that changes only when a count does. */
function tallyOf(errors: FieldErrors, sectionOf: (name: string) => string | undefined) {
  const counts = new Map<string, number>();
  const problems = flattenErrors(errors);
  for (const problem of problems) {
    const section = sectionOf(problem.name);
    if (section !== undefined) counts.set(section, (counts.get(section) ?? 0) + 1);
  }
  const key = [...counts].map(([section, count]) => `${section}:${count}`).join('|');
  return { counts, total: problems.length, key: `${problems.length}|${key}` };
}

/**
 * A long form's navigation, kept in view as the form scrolls: its sections, each with how many
 * problems it has, and buttons that move focus to the previous or next field with a problem (in
 * page order, from the field that has focus).
 */
export function FormNav({
  sections,
  sectionOf,
}: {
  sections: readonly NavSection[];
  /** The section (title) a form path belongs to, e.g. `skills.2.description` → "Skills". */
  sectionOf(name: string): string | undefined;
}) {
  const form = useFormContext();
  const [said, setSaid] = useState('');
  // The counts, re-rendered only when they change: the errors object changes on every keystroke
  // once errors show, the counts rarely.
  const [tally, setTally] = useState(() => tallyOf(form.formState.errors, sectionOf));
  useEffect(
    () =>
      form.subscribe({
        formState: { errors: true },
        callback: ({ errors }) => {
          const next = tallyOf(errors ?? {}, sectionOf);
          setTally((current) => (current.key === next.key ? current : next));
        },
      }),
    [form, sectionOf],
  );
  const { counts, total } = tally;

  // The field last moved to: a click on these buttons takes focus from it, yet the next move
  // goes on from there.
  const last = useRef<HTMLElement | null>(null);
  const move = (button: HTMLElement, direction: 1 | -1) => {
    const form = button.closest('form');
    if (!form) return;
    const invalid = [...form.querySelectorAll<HTMLElement>('[aria-invalid="true"]')];
    const first = invalid[0];
    if (!first) {
      setSaid('No field has a problem.');
      return;
    }
    const focused = document.activeElement;
    const from =
      focused instanceof Node &&
      button.closest('nav')?.contains(focused) &&
      last.current?.isConnected
        ? last.current
        : focused;
    const position = (element: HTMLElement) =>
      from instanceof Node && from !== element && !element.contains(from)
        ? from.compareDocumentPosition(element)
        : 0;
    const found =
      direction === 1
        ? invalid.find((element) => position(element) & Node.DOCUMENT_POSITION_FOLLOWING)
        : invalid.findLast((element) => position(element) & Node.DOCUMENT_POSITION_PRECEDING);
    const next = found ?? (direction === 1 ? first : (invalid.at(-1) ?? first));
    setSaid(
      found
        ? `Problem ${invalid.indexOf(next) + 1} of ${invalid.length}.`
        : direction === 1
          ? `Back to the first of ${invalid.length} problems.`
          : `Back to the last of ${invalid.length} problems.`,
    );
    last.current = next;
    focusElement(next);
  };

  return (
    <nav className="form-nav" aria-label="Form sections">
      <ul className="form-nav__sections">
        {sections.map((section) => {
          const count = counts.get(section.title) ?? 0;
          return (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                aria-label={
                  count > 0
                    ? `${section.title}, ${countOf(count, 'problem', 'problems')}`
                    : undefined
                }
                className={count > 0 ? 'form-nav__link form-nav__link--problem' : 'form-nav__link'}
                onClick={(event) => {
                  event.preventDefault();
                  void focusWhenDrawn(section.id);
                }}
              >
                {section.title}
                {count > 0 ? <span className="form-nav__count"> ({count})</span> : null}
              </a>
            </li>
          );
        })}
      </ul>
      {total > 0 ? (
        <div className="form-nav__problems">
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={(event) => move(event.currentTarget, -1)}
          >
            Previous problem
          </button>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={(event) => move(event.currentTarget, 1)}
          >
            Next problem
          </button>
          <span className="visually-hidden">{countOf(total, 'problem', 'problems')}</span>
        </div>
      ) : null}
      <p role="status" className="visually-hidden">
        {said}
      </p>
    </nav>
  );
}
