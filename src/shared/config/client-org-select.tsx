import { useMemo } from 'react';
import { clientOrgLabel } from '@/domain/portal-config';
import { OptionSelect } from '@/shared/ui/option-select';
import { useOrg } from './org-context';

/** The client org to work for, from the server's list (VMS_CLIENT_ORGS), by id and name. */
export function ClientOrgSelect({ id, describedBy }: { id: string; describedBy?: string }) {
  const { config, clientOrgId, setClientOrgId } = useOrg();
  const options = useMemo(
    () =>
      config.clientOrgIds.map((orgId) => ({ value: orgId, label: clientOrgLabel(config, orgId) })),
    [config],
  );
  return (
    <OptionSelect
      id={id}
      aria-describedby={describedBy}
      value={clientOrgId}
      options={options}
      onChange={setClientOrgId}
    />
  );
}
