import { useMemo } from 'react';
import { OptionSelect } from '../ui/option-select';
import { useOrg } from './org-context';

/** The client org to work for, from the server's list (VMS_CLIENT_ORG_IDS). */
export function ClientOrgSelect({ id, describedBy }: { id: string; describedBy?: string }) {
  const { config, clientOrgId, setClientOrgId } = useOrg();
  const options = useMemo(
    () => config.clientOrgIds.map((orgId) => ({ value: orgId, label: String(orgId) })),
    [config.clientOrgIds],
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
