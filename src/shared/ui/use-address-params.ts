import { useSearchParams } from 'react-router';

/**
 * A page's state kept in the address (so reload and links keep it): the parameters, and an
 * update that sets the given ones, removes those given as null or '', keeps the rest, and
 * replaces the history entry rather than adding one per keystroke.
 */
export function useAddressParams(): [
  URLSearchParams,
  (changes: Record<string, string | null>) => void,
] {
  const [params, setParams] = useSearchParams();
  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );
  return [params, update];
}
