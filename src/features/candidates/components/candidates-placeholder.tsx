import { Link, useSearchParams } from 'react-router';

/** Until the candidate workspace (issue 6) arrives: says so, and keeps the chosen Req ID. */
export function CandidatesPlaceholder() {
  const [params] = useSearchParams();
  const reqId = params.get('reqId');
  return (
    <div className="page">
      <h1>Candidates</h1>
      <div className="notice notice--info">
        <p>
          Submitting candidates comes next: this page will hold a candidate form shaped by the
          chosen requisition’s skills and questions, with the same batch, send and results as
          requisitions.
        </p>
        {reqId ? (
          <p>
            You chose requisition <strong>{reqId}</strong>. Until then, see it in the{' '}
            <Link to={`/requisitions?field=Req_Id&op=%3D&value=${encodeURIComponent(reqId)}`}>
              requisition list
            </Link>
            .
          </p>
        ) : (
          <p>
            Go to the <Link to="/requisitions">requisitions</Link> to choose one.
          </p>
        )}
      </div>
    </div>
  );
}
