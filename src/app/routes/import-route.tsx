import { ImportPage } from '../../core/import/components/import-page';
import { useOrg } from '../../shared/config/org-context';
import { batchKinds } from '../kinds/batch-kinds';

/** /requisitions/import, /candidates/import: a spreadsheet's rows into the batch. */
export default function ImportRoute({ kind }: { kind: string }) {
  const { clientOrgId } = useOrg();
  const chosen = batchKinds.find((entry) => entry.id === kind) ?? batchKinds[0];
  if (!chosen) return null;
  return (
    <>
      <title>{`Import ${chosen.noun.many} · VMS submission portal`}</title>
      {/* Another client org is another import: the page starts afresh. */}
      <ImportPage key={`${chosen.id}:${clientOrgId}`} kind={chosen} />
    </>
  );
}
