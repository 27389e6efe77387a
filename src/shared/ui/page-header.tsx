import type { ReactNode } from 'react';

/** A page's heading with the page's own actions (exports, Compose) in a row beside it. */
export function PageHeader({ heading, children }: { heading: ReactNode; children: ReactNode }) {
  return (
    <div className="page__header">
      <h1>{heading}</h1>
      <div className="button-row">{children}</div>
    </div>
  );
}
