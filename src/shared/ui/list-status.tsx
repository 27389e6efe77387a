import { errorMessage } from '@/shared/api/http';
import { countOf } from '@/shared/lib/format';

/** Where a list read from the server stands, as TanStack Query's result says it. */
export interface ListQueryState {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  /** An infinite list with more pages to load. */
  hasNextPage?: boolean;
  /** Offered as Try again beside the reason it failed. */
  refetch?: () => unknown;
}

/** What ListStatus needs: the query's state, how many rows are shown and the words for them. */
export interface ListStatusProps {
  query: ListQueryState;
  count: number;
  /** "call", "calls". */
  one: string;
  many: string;
  /** "Reading the journal…". */
  reading: string;
  /** What an empty list means here ("No call matches these filters."). */
  empty: string;
}

/**
 * The line above a list that says where it stands (a status, read out as it changes): reading,
 * how many are shown and whether more follow, or `empty`; and, when it could not be read, the
 * server's reason as an alert with Try again. One wording for every list the pages read.
 */
export function ListStatus({ query, count, one, many, reading, empty }: ListStatusProps) {
  const { refetch } = query;
  return (
    <>
      <p role="status">
        {query.isPending
          ? reading
          : query.isError
            ? ''
            : count === 0
              ? empty
              : `${countOf(count, one, many)}${query.hasNextPage ? ' shown, more below' : ''}`}
      </p>
      {query.isError ? (
        <p role="alert" className="notice notice--error">
          {errorMessage(query.error)}
          {refetch ? (
            <>
              {' '}
              <button type="button" className="link-button" onClick={() => void refetch()}>
                Try again
              </button>
            </>
          ) : null}
        </p>
      ) : null}
    </>
  );
}
