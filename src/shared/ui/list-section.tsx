import type { ReactNode } from 'react';
import { useId } from 'react';
import { ListStatus, type ListQueryState, type ListStatusProps } from './list-status';

/** A list read in pages (TanStack Query's infinite query), the newest first. */
export interface PagedQueryState extends ListQueryState {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): unknown;
}

/**
 * A section holding one list read from the server: its heading, the line that says where the
 * list stands (ListStatus), the list itself once it has rows, and, for a list read in pages,
 * "Show older …" to read the next page. One shape for the audit trail, the journal and the
 * suites, so each says the same things in the same places.
 */
export function ListSection({
  heading,
  query,
  older,
  className,
  children,
  ...status
}: Omit<ListStatusProps, 'query'> & {
  heading: string;
  query: ListQueryState | PagedQueryState;
  /** The button that reads the next page ("Show older calls"), for a paged list. */
  older?: string;
  className?: string;
  /** The list, shown once it has rows. */
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className={className}>
      <h2 id={`${id}-heading`}>{heading}</h2>
      <ListStatus query={query} {...status} />
      {status.count > 0 ? children : null}
      {older !== undefined && 'fetchNextPage' in query && query.hasNextPage ? (
        <button
          type="button"
          className="button button--secondary"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? 'Loading…' : older}
        </button>
      ) : null}
    </section>
  );
}
