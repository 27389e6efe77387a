import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { subjectQuerySchema, type StoreCounts, type SubjectQuery } from '@/domain/personal-subject';
import {
  eraseSubjectData,
  exportSubjectData,
  findSubjectData,
  storeLabels,
} from '@/features/privacy/api/privacy';
import { errorMessage } from '@/shared/api/http';
import { ConfirmDialog } from '@/shared/ui/confirm-dialog';
import { DataTable, type Column } from '@/shared/ui/data-table';
import { ErrorNotice } from '@/shared/ui/error-notice';

export const privacyHeading = 'Personal data';

/** Saves text as a file the browser downloads. */
function download(file: { text: string; type: string; name: string }): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

const storeColumns: readonly Column<[string, number]>[] = [
  { heading: 'Store', cell: ([store]) => storeLabels[store] ?? store },
  { heading: 'Records', cell: ([, n]) => n },
];

function StoreTable({ counts }: { counts: StoreCounts }) {
  const stores = Object.entries(counts);
  if (stores.length === 0) return <p role="status">Nothing is held about this person.</p>;
  return (
    <DataTable
      caption="Where they are held"
      rows={stores}
      columns={storeColumns}
      rowKey={([store]) => store}
    />
  );
}

/**
 * /privacy, for admins: one person found by e-mail (and name) in every store, what is held about
 * them exported, and erased with a reason after a confirmation (decision 059).
 */
export function PrivacyPage() {
  const ids = { email: useId(), name: useId(), reason: useId() };
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [subject, setSubject] = useState<SubjectQuery | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  const find = useMutation({ mutationFn: findSubjectData });
  const exporting = useMutation({ mutationFn: exportSubjectData, onSuccess: download });
  const erase = useMutation({
    mutationFn: eraseSubjectData,
    onSuccess: (erased) => {
      const total = Object.values(erased.counts).reduce((sum, n) => sum + n, 0);
      setDone(`Erased ${total} record(s) at ${erased.erasedAt}.`);
      if (subject) find.mutate(subject);
    },
  });

  function onFind(event: FormEvent) {
    event.preventDefault();
    const parsed = subjectQuerySchema.safeParse({ email, name });
    if (!parsed.success) {
      setProblem(parsed.error.issues.map((issue) => issue.message).join(' '));
      return;
    }
    setProblem(null);
    setDone(null);
    setSubject(parsed.data);
    find.mutate(parsed.data);
  }

  const reasonProblem =
    reason.trim().length < 5
      ? 'Say why (the person’s request and its date), at least 5 characters, before exporting or erasing.'
      : null;
  const failure = find.error ?? exporting.error ?? erase.error;

  return (
    <div className="page">
      <h1>{privacyHeading}</h1>
      <p className="page__lead">
        Find one person by e-mail in every store the portal keeps, export what is held about them,
        or erase it at their request. Backups taken before and the VMS itself are not changed.
      </p>
      <form onSubmit={onFind} noValidate>
        <label htmlFor={ids.email}>E-mail</label>
        <input
          id={ids.email}
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <label htmlFor={ids.name}>Name (first and last, optional)</label>
        <input id={ids.name} value={name} onChange={(event) => setName(event.target.value)} />
        <button type="submit" className="button" disabled={find.isPending}>
          Find
        </button>
      </form>
      <ErrorNotice message={problem ?? (failure ? errorMessage(failure) : null)} />
      {done && <p role="status">{done}</p>}
      {subject && find.data && (
        <>
          <StoreTable counts={find.data} />
          {Object.keys(find.data).length > 0 && (
            <>
              <label htmlFor={ids.reason}>Reason</label>
              <input
                id={ids.reason}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
              />
              {reason !== '' && reasonProblem && <p className="hint">{reasonProblem}</p>}
              <div className="button-row">
                <button
                  type="button"
                  className="button button--secondary"
                  disabled={reasonProblem !== null || exporting.isPending}
                  onClick={() => exporting.mutate({ ...subject, reason, format: 'json' })}
                >
                  Export JSON
                </button>
                <button
                  type="button"
                  className="button button--secondary"
                  disabled={reasonProblem !== null || exporting.isPending}
                  onClick={() => exporting.mutate({ ...subject, reason, format: 'html' })}
                >
                  Export readable page
                </button>
                <button
                  type="button"
                  className="button button--warning"
                  disabled={reasonProblem !== null || erase.isPending}
                  onClick={() => setConfirming(true)}
                >
                  Erase…
                </button>
              </div>
            </>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title="Erase this person’s data?"
        confirmLabel="Erase"
        destructive
        onConfirm={() => {
          setConfirming(false);
          if (subject) erase.mutate({ ...subject, reason });
        }}
        onCancel={() => setConfirming(false)}
      >
        <p>
          Every value about {subject?.email} in the stores above becomes “[erased …]”. This cannot
          be undone.
        </p>
      </ConfirmDialog>
    </div>
  );
}
