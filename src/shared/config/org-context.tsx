import type { ReactNode } from 'react';
import { createContext, useCallback, useContext, useMemo } from 'react';
import type { ConnectionSettings } from '@/domain/portal-config';
import type { OrgScope } from '@/shared/api/vms';
import { useLocalStore } from '@/shared/storage/local-store';
import { chosenOrgStore, clientOrgOf } from './client-org';
import { currentConnection } from './current-connection';
import type { PortalConfig } from './portal-config';

/**
 * The org context every page works in: the client org chosen from the server's list (kept in
 * browser storage), the vendor org, and the server's settings. Always visible in the header.
 */
export interface OrgContextValue extends OrgScope {
  config: PortalConfig;
  setClientOrgId(id: number): void;
}

const OrgContext = createContext<OrgContextValue | null>(null);

export function OrgProvider({ config, children }: { config: PortalConfig; children: ReactNode }) {
  const clientOrgId = clientOrgOf(config, useLocalStore(chosenOrgStore));
  const setClientOrgId = useCallback((id: number) => chosenOrgStore.set(id), []);
  const value = useMemo(
    () => ({ config, clientOrgId, vendorOrgId: config.vendorOrgId, setClientOrgId }),
    [config, clientOrgId, setClientOrgId],
  );
  return <OrgContext.Provider value={value}>{children}</OrgContext.Provider>;
}

/** The org context, or null outside the app's provider (a component rendered on its own). */
export function useOptionalOrg(): OrgContextValue | null {
  return useContext(OrgContext);
}

export function useOrg(): OrgContextValue {
  const value = useContext(OrgContext);
  if (!value) throw new Error('useOrg is used outside OrgProvider');
  return value;
}

/** The current org scope, stable while the orgs stay the same (a query key, a memo input). */
export function useOrgScope(): OrgScope {
  const { clientOrgId, vendorOrgId } = useOrg();
  return useMemo(() => ({ clientOrgId, vendorOrgId }), [clientOrgId, vendorOrgId]);
}

/**
 * The VMS connection this page works on, with its label and whether it is production; null where
 * the page has not settled one (no settings from the server).
 */
export function useCurrentConnection(): ConnectionSettings | null {
  const { config } = useOrg();
  const name = currentConnection();
  return config.connections.find((connection) => connection.name === name) ?? null;
}
