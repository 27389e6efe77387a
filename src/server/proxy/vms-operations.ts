import { ApiError } from '@/domain/api-error';
import type { OrgScope } from '@/domain/vms-contract';
import type { Connection } from '@/server/config';

export { vmsOperations, type OrgScope, type VmsOperation } from '@/domain/vms-contract';

/** A parsed query string: a repeated parameter becomes an array. */
export type Query = Record<string, string | string[] | undefined>;

function orgIdParameter(query: Query, name: string): number {
  const value = query[name];
  if (value === undefined || value === '') {
    throw new ApiError(
      'missing_parameter',
      `The query parameter ${name} is missing. Add ?Client_Org_Id=<client org id>&Vendor_Org_Id=<vendor org id> to the address.`,
      [{ field: name, message: 'required' }],
    );
  }
  if (Array.isArray(value)) {
    throw new ApiError(
      'invalid_parameter',
      `The query parameter ${name} is given ${value.length} times. Give it once.`,
      [{ field: name, message: 'given more than once' }],
    );
  }
  // Canonical digits only: the query goes upstream verbatim, so "01001" or "1001.0" must not pass
  // a check that the VMS might then read differently.
  if (!/^[1-9]\d{0,15}$/.test(value)) {
    throw new ApiError(
      'invalid_parameter',
      `The query parameter ${name} must be a whole number such as 1001; got "${value}".`,
      [{ field: name, message: 'not a whole number' }],
    );
  }
  return Number(value);
}

/**
 * The proxy acts only for its configured
 * orgs, and refuses any other before anything leaves. Missing or malformed → 400, not ours → 403.
 */
export function checkOrgScope(
  query: Query,
  config: Pick<Connection, 'clientOrgIds' | 'vendorOrgId'>,
): OrgScope {
  const clientOrgId = orgIdParameter(query, 'Client_Org_Id');
  const vendorOrgId = orgIdParameter(query, 'Vendor_Org_Id');
  if (!config.clientOrgIds.includes(clientOrgId)) {
    throw new ApiError(
      'org_not_permitted',
      `This portal may not act for client org ${clientOrgId} (Client_Org_Id). It acts for ${config.clientOrgIds.join(', ')}; pick one of those, or ask the administrator to add the org to VMS_CLIENT_ORGS.`,
      [{ field: 'Client_Org_Id', message: 'not permitted' }],
    );
  }
  if (vendorOrgId !== config.vendorOrgId) {
    throw new ApiError(
      'org_not_permitted',
      `This portal acts as vendor org ${config.vendorOrgId}, not ${vendorOrgId} (Vendor_Org_Id). Use Vendor_Org_Id=${config.vendorOrgId}.`,
      [{ field: 'Vendor_Org_Id', message: 'not permitted' }],
    );
  }
  return { clientOrgId, vendorOrgId };
}

/** The two org parameters, spelled exactly as the VMS documents them. */
const orgParameters = ['Client_Org_Id', 'Vendor_Org_Id'] as const;

/** A key as a lenient reader might see it: no case, no separators, no `[…]` suffix. */
function looseKey(name: string): string {
  return name
    .replace(/(\[[^\]]*\])+$/, '')
    .toLowerCase()
    .replace(/[\s_.-]/g, '');
}

const looseOrgKeys = new Map(orgParameters.map((name) => [looseKey(name), name]));

/**
 * The query string the VMS receives (decision 001): the org
 * parameters rebuilt from the values the proxy checked, everything else as sent. A key that a
 * VMS reading keys leniently (any case, `[]` arrays) could take for an org parameter is refused,
 * so the VMS can never act for an org other than the one checked.
 */
export function forwardedQuery(rawUrl: string, orgs: OrgScope): string {
  const queryAt = rawUrl.indexOf('?');
  if (queryAt < 0) return '';
  const pieces = rawUrl
    .slice(queryAt + 1)
    .split('&')
    .filter((piece) => piece !== '');
  const rebuilt = pieces.map((piece) => {
    const equals = piece.indexOf('=');
    const rawName = equals < 0 ? piece : piece.slice(0, equals);
    let name: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      throw new ApiError(
        'invalid_parameter',
        `The query parameter name "${rawName}" is not readable (a broken %-escape). Fix the address.`,
        [{ field: rawName, message: 'unreadable name' }],
      );
    }
    if (name === 'Client_Org_Id') return `Client_Org_Id=${orgs.clientOrgId}`;
    if (name === 'Vendor_Org_Id') return `Vendor_Org_Id=${orgs.vendorOrgId}`;
    const meant = looseOrgKeys.get(looseKey(name));
    if (meant !== undefined) {
      throw new ApiError(
        'invalid_parameter',
        `The query parameter "${name}" could be read as ${meant}. Give ${meant} once, spelled exactly so, and nothing else like it.`,
        [{ field: name, message: `could be read as ${meant}` }],
      );
    }
    return piece;
  });
  return `?${rebuilt.join('&')}`;
}
