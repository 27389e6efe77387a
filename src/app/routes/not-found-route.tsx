import { Link } from 'react-router';

export default function NotFoundRoute() {
  return (
    <div className="page">
      <title>Page not found · VMS submission portal</title>
      <h1>Page not found</h1>
      <p>
        There is no page at this address. Check it, or go to the{' '}
        <Link to="/requisitions">requisitions</Link>.
      </p>
    </div>
  );
}

/** The whole page is its shell: it depends on nothing but the address. */
export const Shell = NotFoundRoute;
