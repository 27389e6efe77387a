import { Link } from 'react-router';
import { errorMessage } from '@/shared/api/http';

/** A suite's or a run's page when it could not be read: its heading, why, and the way back. */
export function NotRead({ heading, error }: { heading: string; error: unknown }) {
  return (
    <div className="page">
      <h1>{heading}</h1>
      <p role="alert" className="notice notice--error">
        {errorMessage(error)}
      </p>
      <p>
        <Link to="/suites">All suites</Link>
      </p>
    </div>
  );
}
