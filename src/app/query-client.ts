import { QueryClient } from '@tanstack/react-query';
import { RequestFailure } from '@/shared/api/http';

/**
 * Queries retry twice on a network failure or a 5xx (a VMS restarting, a dropped connection),
 * never on a 4xx or an answer of the wrong shape: those say something that a retry will not
 * change. Mutations (sending a batch) never retry on their own: the user decides.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) =>
          failures < 2 &&
          error instanceof RequestFailure &&
          (error.kind === 'offline' || error.kind === 'timeout' || (error.status ?? 0) >= 500),
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}
