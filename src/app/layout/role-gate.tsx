import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Role } from '@/domain/auth';
import { useMay, useSessionUser } from '@/shared/session/session';

const whoMay: Record<Exclude<Role, 'recruiter'>, string> = {
  admin: 'administrators',
  qa: 'QA and administrators',
};

/**
 * A page for the role it `needs` and above. Anyone else who reaches it (a typed or bookmarked address; the
 * navigation does not offer it) is told so and what to do, instead of the page's empty shell with
 * the server's 403 in it. The server refuses its calls either way: this only says so plainly.
 */
export function RoleGate({
  needs,
  children,
}: {
  needs: Exclude<Role, 'recruiter'>;
  children: ReactNode;
}) {
  const may = useMay(needs);
  const user = useSessionUser();
  if (may) return children;
  return (
    <div className="page">
      <title>Not allowed · VMS submission portal</title>
      <h1>Not allowed</h1>
      <p>
        This page is for {whoMay[needs]}. You are signed in as {user?.email ?? 'someone else'}
        {user ? ` (${user.role})` : ''}, so it has nothing for you. If you need it, ask an admin for
        the role; until then, go on with the <Link to="/requisitions">requisitions</Link>.
      </p>
    </div>
  );
}
