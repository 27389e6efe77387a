import type { ReactNode } from 'react';

/** A button-like link that downloads what the server makes at `href` (an export). */
export function DownloadLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a className="button button--secondary" href={href} download>
      {children}
    </a>
  );
}
