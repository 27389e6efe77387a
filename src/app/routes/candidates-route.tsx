import { CandidatesPlaceholder } from '../../features/candidates/components/candidates-placeholder';

export default function CandidatesRoute() {
  return (
    <>
      <title>Candidates · VMS submission portal</title>
      <CandidatesPlaceholder />
    </>
  );
}
