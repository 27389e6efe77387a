import { Link } from 'react-router';
import { notSubmittableText, todayIso, whyNotSubmittable } from '@/domain';
import { billRateNote } from '@/features/candidates/model/bill-rate';
import type {
  TargetProps,
  TargetRequisition,
} from '@/features/candidates/model/target-requisition';

const dash = (value: string) => (value.trim() === '' ? '–' : value);

function aboveMaximum(value: string): string {
  if (value === '1') return 'Yes';
  if (value === '0') return 'No: not above the hourly high';
  return 'Not configured (no limit)';
}

/** What the candidate is submitted to, beside the form: the facts the warnings are made of. */
export function RequisitionFacts({ reqId, requisition }: TargetProps) {
  return (
    <section className="settings-section" aria-labelledby="target-requisition-title">
      <h2 id="target-requisition-title" className="form-section__title">
        Requisition {reqId}
        {requisition?.title ? (
          <>
            : <bdi className="user-text">{requisition.title}</bdi>
          </>
        ) : null}
      </h2>
      {requisition ? <BlockingFacts requisition={requisition} /> : null}
      {requisition ? (
        <dl className="facts">
          <div>
            <dt>Client internal req</dt>
            <dd className="user-text">{dash(requisition.clientInternalReq)}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>{dash(requisition.statusLabel)}</dd>
          </div>
          <div>
            <dt>Start / end</dt>
            <dd>
              {dash(requisition.startDate)} to {dash(requisition.endDate)}
            </dd>
          </div>
          <div>
            <dt>Bill rate, hourly high / low</dt>
            <dd>
              {dash(requisition.hourlyHigh)} / {dash(requisition.hourlyLow)}
            </dd>
          </div>
          <div>
            <dt>Candidates above the maximum bill rate</dt>
            <dd>{aboveMaximum(requisition.maximumBillRate)}</dd>
          </div>
          <div>
            <dt>No new submittals after</dt>
            <dd>{dash(requisition.noNewSubmittalsAfter)}</dd>
          </div>
          <div>
            <dt>Skills / questions</dt>
            <dd>
              {requisition.skills.length} / {requisition.questions.length}
            </dd>
          </div>
        </dl>
      ) : (
        <p className="notice notice--info">
          Requisition {reqId} is not in the requisition list for this client org, so its skills and
          questions cannot be checked here: give up to 10 skill responses and 5 answers in the
          requisition’s order. The VMS checks them when the batch is sent.
        </p>
      )}
      <p>
        <Link to="/candidates">Choose another requisition</Link>
      </p>
    </section>
  );
}

/**
 * What would make the VMS refuse a candidate to this requisition, said first, as soon as it is
 * chosen: it takes no candidates now (status, openings, submittals date), and its rate cap.
 */
function BlockingFacts({ requisition }: { requisition: TargetRequisition }) {
  const reasons = whyNotSubmittable(requisition, todayIso());
  const cap = requisition.maximumBillRate === '0' ? billRateNote(requisition, '') : null;
  if (reasons.length === 0 && !cap) return null;
  return (
    <div className="notice notice--warning requisition-blocking">
      {reasons.length > 0 ? (
        <p>
          <strong>Takes no candidates now:</strong> {notSubmittableText(reasons)}. The VMS will
          likely answer Error; <Link to="/candidates">choose another requisition</Link>, or go on if
          you know this has changed.
        </p>
      ) : null}
      {cap ? (
        <p>
          <strong>Rate cap:</strong> {cap.band}
        </p>
      ) : null}
    </div>
  );
}
