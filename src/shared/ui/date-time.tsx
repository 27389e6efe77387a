import { formatDateTime } from '@/shared/lib/format';

/** A moment in a list: the reader's local date and time, the exact one kept in `dateTime`. */
export function DateTime({ at, seconds = false }: { at: string; seconds?: boolean }) {
  return <time dateTime={at}>{formatDateTime(at, { seconds })}</time>;
}
