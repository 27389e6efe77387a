import { batchKinds } from '@/app/kinds/batch-kinds';
import { PageShell } from '@/app/layout/page-shell';
import { ImportPage, importHeading } from '@/core/import/components/import-page';
import { useOrg } from '@/shared/config/org-context';

/** /requisitions/import, /candidates/import: a spreadsheet's rows into the batch. */
const kindOf = (kind: string) => batchKinds.find((entry) => entry.id === kind) ?? batchKinds[0];

export default function ImportRoute({ kind }: { kind: string }) {
  const { clientOrgId } = useOrg();
  const chosen = kindOf(kind);
  if (!chosen) return null;
  return (
    <>
      <title>{`${importHeading(chosen)} · VMS submission portal`}</title>
      {/* Another client org is another import: the page starts afresh. */}
      <ImportPage key={`${chosen.id}:${clientOrgId}`} kind={chosen} />
    </>
  );
}

export function Shell({ kind }: { kind: string }) {
  const chosen = kindOf(kind);
  return chosen ? <PageShell heading={importHeading(chosen)} /> : null;
}
