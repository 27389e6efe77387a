/**
 * The sandbox VMS's demo identity. These are public, sandbox-only values (documented in the
 * README) that the portal server uses when VMS_BASE_URL is unset; they grant nothing anywhere else.
 */
export const sandboxDemo = {
  apiKey: 'sandbox-demo-key-7f3a9c2e',
  apiSecret: 'sandbox-demo-secret-4b8d1e6f',
  vendorOrgId: 9001,
  /** 1001 has sub-orgs; 1002 lets new engagements exceed the hourly high. */
  clientOrgIds: [1001, 1002],
  /** Their names, as the sandbox's reference data and the portal's org picker show them. */
  clientOrgNames: { 1001: 'Northwind Health', 1002: 'Contoso Manufacturing' },
} as const;
