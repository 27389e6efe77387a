import { CandidateWorkspacePage } from '../../features/candidates/components/candidate-workspace';

/** /candidates[?reqId=…]: the candidate workspace. */
export default function CandidatesRoute() {
  return <CandidateWorkspacePage />;
}
