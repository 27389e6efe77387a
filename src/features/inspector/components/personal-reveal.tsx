import { useId, useState, type FormEvent } from 'react';
import type { JournalDetail, JournalReveal } from '@/domain/journal';
import {
  fetchRevealedExport,
  revealCall,
  type JournalFilters,
} from '@/features/inspector/api/journal';
import { errorMessage } from '@/shared/api/http';
import { downloadBlob } from '@/shared/ui/json-actions';

/**
 * How a call's personal data is shown (decision 058): masked, with "Reveal personal data" for QA
 * and admins, which asks why (required, kept in the audit trail) and then shows that one call in
 * full; a recruiter sees their own calls in full and no reveal.
 */
export function PersonalReveal({
  entry,
  onRevealed,
}: {
  entry: JournalDetail;
  onRevealed(revealed: JournalReveal): void;
}) {
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reasonId = useId();
  const errorId = useId();

  if (entry.personalData === 'full') return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === '') {
      setError('Give a reason to reveal personal data: it is kept in the audit trail.');
      return;
    }
    setBusy(true);
    try {
      onRevealed(await revealCall(entry.id, reason));
      setAsking(false);
      setError(null);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="inspector__personal">
      <p className="field__hint">
        Personal values (names, e-mail addresses, rates, answers) are masked (•••) in this call, its
        copies and exports.
      </p>
      {entry.mayReveal && !asking ? (
        <button type="button" className="button button--secondary" onClick={() => setAsking(true)}>
          Reveal personal data
        </button>
      ) : null}
      {entry.mayReveal && asking ? (
        <form noValidate onSubmit={(event) => void submit(event)}>
          <div className={error === null ? 'field' : 'field field--error'}>
            <label htmlFor={reasonId} className="field__label">
              Reason for revealing (kept in the audit trail)
            </label>
            <input
              id={reasonId}
              type="text"
              required
              aria-required="true"
              aria-invalid={error !== null}
              aria-describedby={error === null ? undefined : errorId}
              maxLength={500}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
          </div>
          <div className="button-row">
            <button type="submit" className="button" disabled={busy}>
              Reveal
            </button>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setAsking(false);
                setError(null);
              }}
            >
              Cancel
            </button>
          </div>
          {error !== null ? (
            <p id={errorId} role="alert" className="notice notice--error">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}

/**
 * The export of the selection with its personal data, for QA and admins (decisions 058, 061): the
 * buttons appear once a reason is given; each download is a POST with the reason in its body
 * (never in an address) and a reveal in the audit trail.
 */
export function RevealedExport({ filters }: { filters: JournalFilters }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<'har' | 'jsonl' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reasonId = useId();
  const panelId = useId();
  const given = reason.trim();

  const download = async (format: 'har' | 'jsonl') => {
    setBusy(format);
    setError(null);
    try {
      const file = await fetchRevealedExport(filters, format, given);
      downloadBlob(file.blob, file.fileName);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="inspector__personal">
      <button
        type="button"
        className="button button--secondary"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((shown) => !shown)}
      >
        Export with personal data…
      </button>
      <div id={panelId} hidden={!open}>
        <div className="field">
          <label htmlFor={reasonId} className="field__label">
            Reason for exporting personal data (kept in the audit trail)
          </label>
          <input
            id={reasonId}
            type="text"
            required
            aria-required="true"
            maxLength={500}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
        {given === '' ? (
          <p className="field__hint">
            Give a reason to export with personal data; without one, exports are masked.
          </p>
        ) : (
          <div className="button-row">
            <button
              type="button"
              className="button button--secondary"
              disabled={busy !== null}
              onClick={() => void download('har')}
            >
              {busy === 'har' ? 'Exporting HAR…' : 'Export HAR with personal data'}
            </button>
            <button
              type="button"
              className="button button--secondary"
              disabled={busy !== null}
              onClick={() => void download('jsonl')}
            >
              {busy === 'jsonl' ? 'Exporting JSON Lines…' : 'Export JSON Lines with personal data'}
            </button>
          </div>
        )}
        {error !== null ? (
          <p role="alert" className="notice notice--error">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
