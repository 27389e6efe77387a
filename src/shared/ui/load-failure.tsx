import type { ReactNode } from 'react';
import { errorMessage } from '@/shared/api/http';

/**
 * Something the page needs could not be loaded: what failed, the server's reason, what the user
 * can do instead (`children`), and Try again.
 */
export function LoadFailure({
  what,
  error,
  onRetry,
  children,
}: {
  /** "The requisitions could not be loaded". */
  what: string;
  error: unknown;
  onRetry(): void;
  children?: ReactNode;
}) {
  return (
    <div role="alert" className="notice notice--error">
      <p>
        {what}: {errorMessage(error)}
      </p>
      {children}
      <button type="button" className="button button--secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
