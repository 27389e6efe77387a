import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useBatchTray } from '@/core/batch/hooks/use-batch-tray';
import type { BatchKind, ResultRow } from '@/core/batch/model/batch-kind';
import { describeMessage } from '@/core/batch/model/result-fields';
import type { Submission } from '@/core/batch/model/submissions-state';
import { useOrg } from '@/shared/config/org-context';
import { countOf } from '@/shared/lib/format';

/**
 * "Fix all failed": every failed row of the batch goes into the tray at once, each marked as a
 * resend of its row with the VMS's message, to be corrected there (Edit) and sent in one batch.
 */
export function FixAllFailed({
  kind,
  submission,
  rows,
}: {
  kind: BatchKind;
  submission: Submission;
  rows: readonly ResultRow[];
}) {
  const tray = useBatchTray(kind.id, submission.clientOrgId, { suspend: false });
  const { clientOrgId, setClientOrgId } = useOrg();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [note, setNote] = useState<string | null>(null);
  const nouns = (n: number) => countOf(n, `failed ${kind.noun.one}`, `failed ${kind.noun.many}`);

  const fixAll = async () => {
    const resends = rows.flatMap((row) => {
      const wire = submission.items[row.row - 1];
      if (!wire) return [];
      const loaded = submission.loaded?.[row.row - 1] ?? undefined;
      return [
        {
          wire,
          loaded,
          resendOf: {
            batchId: submission.batchId,
            row: row.row,
            message: describeMessage(kind, row.message),
          },
        },
      ];
    });
    const added = await tray.addResends(resends);
    setNote(
      added === 0
        ? `The ${rows.length === 1 ? `failed ${kind.noun.one} is` : `failed ${kind.noun.many} are`} already in the batch.`
        : `Added ${nouns(added)} to the batch, each marked as a resend of its row. Correct each one (Edit in the batch panel shows what the VMS said), then send the batch once.`,
    );
    // The tray is kept per client org, and shown beside the kind's form.
    if (submission.clientOrgId !== clientOrgId) setClientOrgId(submission.clientOrgId);
    const first = resends[0];
    const formPath = first ? kind.formPath(first.wire).split('?')[0] : undefined;
    if (formPath && pathname !== formPath) void navigate(formPath);
  };

  return (
    <div className="results__fix-all">
      <button type="button" className="button button--secondary" onClick={() => void fixAll()}>
        Fix all failed ({rows.length})
      </button>
      <p role="status" className="field__hint">
        {note}
      </p>
    </div>
  );
}
