import { useId } from 'react';
import { readSuiteFile } from '@/core/suites/api/suites';
import type { Suite } from '@/domain/suite';

/**
 * A suite file chosen and read (JSON, checked against the suite's schema): `onRead` gets the
 * suite, `onProblem` what is wrong with the file in words. Choosing the same file again reads it
 * again.
 */
export function SuiteFileField({
  label,
  onChoose,
  onRead,
  onProblem,
}: {
  label: string;
  /** A file was chosen: earlier problems are no longer current. */
  onChoose(): void;
  onRead(suite: Suite, file: File): void | Promise<void>;
  onProblem(problem: string): void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="file"
        accept=".json,application/json"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          onChoose();
          void readSuiteFile(file).then((read) =>
            'problem' in read ? onProblem(read.problem) : onRead(read.suite, file),
          );
        }}
      />
    </div>
  );
}
