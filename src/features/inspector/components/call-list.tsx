import type { JournalSummary } from '@/domain/journal';
import { statusText, statusTone } from '@/features/inspector/model/status';
import { formatDateTime } from '@/shared/lib/format';
import { StatusBadge } from '@/shared/ui/status-badge';

/** Calls about the one open (the batch's other calls, its replays), each opened with a click. */
export function CallList({
  calls,
  onOpen,
}: {
  calls: readonly JournalSummary[];
  onOpen(id: number): void;
}) {
  return (
    <ul className="inspector__related">
      {calls.map((call) => (
        <li key={call.id}>
          <button type="button" className="link-button" onClick={() => onOpen(call.id)}>
            #{call.id} {call.method} {call.operation ?? call.path}
          </button>{' '}
          <StatusBadge tone={statusTone(call)}>{statusText(call)}</StatusBadge>{' '}
          <time dateTime={call.at}>{formatDateTime(call.at, { seconds: true })}</time>
        </li>
      ))}
    </ul>
  );
}
