import { useQueryClient } from '@tanstack/react-query';
import { suitesKey } from '@/core/suites/api/suites';
import { errorMessage } from '@/shared/api/http';

/**
 * A change the suites' pages make to what is stored (a suite, its schedules): once it is done,
 * every suites query is read again and `then` runs with its answer; a change that fails is shown
 * as the page's problem, in the server's words, and nothing after it runs.
 */
export function useSuitesChange(
  setProblem: (problem: string) => void,
): <T>(change: () => Promise<T>, then?: (answer: T) => void) => Promise<void> {
  const queryClient = useQueryClient();
  return async (change, then) => {
    try {
      const answer = await change();
      await queryClient.invalidateQueries({ queryKey: suitesKey });
      then?.(answer);
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };
}
