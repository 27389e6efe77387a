import { createContext, useContext } from 'react';

/**
 * True inside a page's prerendered shell (decision 040), as the build draws it and as the app
 * draws it until it takes over. Its fields take typing (the app carries it over), but a button
 * there would do nothing: it is shown disabled until the app's own page replaces it.
 */
export const PageShellContext = createContext(false);

export function useInPageShell(): boolean {
  return useContext(PageShellContext);
}
