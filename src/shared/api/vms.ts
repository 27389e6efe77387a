/** Whom a VMS call is made for: every operation takes both org ids (spec, "Endpoints"). */
export interface OrgScope {
  clientOrgId: number;
  vendorOrgId: number;
}

/** The VMS operations the portal server's signing proxy forwards (architecture.md). */
export type VmsOperation =
  'requisitionimport' | 'candidates' | 'requisitions' | 'requisitionresults' | 'candidateresults';

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
