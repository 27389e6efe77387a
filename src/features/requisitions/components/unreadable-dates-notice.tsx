import { useId } from 'react';
import { Link } from 'react-router';
import { countOf } from '@/shared/lib/format';
import { useMay } from '@/shared/session/session';

/**
 * Above the list: how many of its requisitions have a created or updated time the connection's
 * profile could not read (each shown as the VMS wrote it, with ⚠), and where the fix is found.
 * The Connections page is an administrator's: anyone else is told whom to ask, with no link to a
 * page that would only say it is not theirs. Nothing is shown when every date was read.
 */
export function UnreadableDatesNotice({ count }: { count: number }) {
  const headingId = useId();
  const mayCheck = useMay('admin');
  if (count === 0) return null;
  return (
    <section aria-labelledby={headingId} className="notice notice--warning">
      <h2 id={headingId} className="notice__title">
        Some dates are shown as the VMS wrote them
      </h2>
      <p>
        The dates of {countOf(count, 'requisition', 'requisitions')} cannot be read with this
        connection&apos;s profile, so they are shown as the VMS wrote them (⚠).{' '}
        {mayCheck ? (
          <>
            Run the connection&apos;s check on the <Link to="/connections">Connections page</Link>:
            it names the setting of the profile to change (dates.dateTimes).
          </>
        ) : (
          <>
            Ask an administrator to run the connection&apos;s check on the Connections page: it
            names the setting of the profile to change (dates.dateTimes).
          </>
        )}
      </p>
    </section>
  );
}
