import type { PortalConfigResponse } from '@/domain/portal-config';

/** A connection as the page's settings list it. */
export const testConnection = (
  name: string,
  kind: 'sandbox' | 'remote',
  orgs: number[],
  vendor: number,
) => ({
  name,
  label: name.toUpperCase(),
  production: false,
  kind,
  clientOrgIds: orgs,
  clientOrgNames: {},
  vendorOrgId: vendor,
  dateFormat: 'YYYY-MM-DD' as const,
  maxBatch: 500,
  timeoutMs: 30_000,
  upstream: { kind, label: `${name}.example` },
});

/** The page's settings with sign-in off and two connections, the sandbox (default) and UAT. */
export const twoConnectionSettings: PortalConfigResponse = {
  authRequired: false,
  clientOrgIds: [1001, 1002],
  clientOrgNames: {},
  vendorOrgId: 9001,
  dateFormat: 'YYYY-MM-DD',
  maxBatch: 500,
  timeoutMs: 30_000,
  upstream: { kind: 'sandbox', label: 'sandbox.example' },
  connections: [
    testConnection('sandbox', 'sandbox', [1001, 1002], 9001),
    testConnection('uat', 'remote', [2001, 2002], 9100),
  ],
  defaultConnection: 'sandbox',
};
