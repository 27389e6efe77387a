import type { OrgScope, VmsOperation } from '@/domain/vms-contract';

export type { OrgScope, VmsOperation } from '@/domain/vms-contract';

/** `/api/vms/<operation>?Client_Org_Id=…&Vendor_Org_Id=…&…`: same origin, through the proxy. */
export function vmsUrl(
  operation: VmsOperation,
  orgs: OrgScope,
  params: Record<string, string> = {},
): string {
  const query = new URLSearchParams({
    Client_Org_Id: String(orgs.clientOrgId),
    Vendor_Org_Id: String(orgs.vendorOrgId),
    ...params,
  });
  return `/api/vms/${operation}?${query.toString()}`;
}
