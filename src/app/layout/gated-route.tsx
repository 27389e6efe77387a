import type { ReactNode } from 'react';
import type { Role } from '@/domain/auth';
import { PageShell } from './page-shell';
import { RoleGate } from './role-gate';

/**
 * A route module's two exports for a page of one role and up (`needs`; left out, every user's):
 * the page behind RoleGate, with its document title when the page does not set its own, and the
 * shell prerendered before the app runs, which shows the page's heading (to those the role lets
 * in).
 */
export function gatedRoute({
  needs,
  heading,
  title,
  page,
}: {
  needs?: Exclude<Role, 'recruiter'>;
  heading: string;
  /** The document title's first part ("Audit trail"); left out when the page sets its own. */
  title?: string;
  page(): ReactNode;
}) {
  return {
    Page() {
      const content = (
        <>
          {title === undefined ? null : <title>{`${title} · VMS submission portal`}</title>}
          {page()}
        </>
      );
      return needs === undefined ? content : <RoleGate needs={needs}>{content}</RoleGate>;
    },
    Shell() {
      return <PageShell heading={heading} {...(needs && { needs })} />;
    },
  };
}
