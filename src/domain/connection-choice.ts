import type { CallSettings, PortalConfigResponse } from './portal-config';

/*
 * Which connection and client org a page works on, from the portal's settings and the choices
 * kept in the browser. Apart from the settings' schemas (portal-config.ts) so that code which
 * only applies these rules (the list's worker as it starts, before zod has loaded) loads nothing
 * else.
 */

/** Only the call settings of `source`, field by field: whatever else it holds stays behind. */
export function callSettingsOf(source: CallSettings): CallSettings {
  return {
    clientOrgIds: source.clientOrgIds,
    clientOrgNames: source.clientOrgNames,
    vendorOrgId: source.vendorOrgId,
    dateFormat: source.dateFormat,
    maxBatch: source.maxBatch,
    timeoutMs: source.timeoutMs,
    ...(source.fullReadEvery ? { fullReadEvery: source.fullReadEvery } : {}),
  };
}

/**
 * The settings as they apply while working on connection `name`: its orgs, vendor org, date
 * format, limits and VMS in the top-level fields every page reads. An unknown name gives the
 * settings as they are (the default connection's).
 */
export function settingsForConnection(
  config: PortalConfigResponse,
  name: string,
): PortalConfigResponse {
  const connection = config.connections.find((entry) => entry.name === name);
  if (!connection) return config;
  // The default connection's list setting is not another's: each brings its own or none.
  const { fullReadEvery: _default, ...rest } = config;
  return {
    ...rest,
    ...callSettingsOf(connection),
    upstream: connection.upstream,
  };
}

/**
 * The connection a page works on: the one chosen last (`chosen`), if it is still allowed, else the
 * default, else the first allowed (`allowed`: a user's grants, null for every connection); null
 * when none is allowed. The browser settles it with the choice it keeps; the server, which cannot
 * see that choice, with none, for the page it sends before the app runs.
 */
export function settledConnection(
  names: readonly string[],
  defaultName: string,
  allowed: readonly string[] | null,
  chosen: string | null,
): string | null {
  const usable = allowed === null ? names : names.filter((name) => allowed.includes(name));
  return (
    (chosen !== null && usable.includes(chosen) ? chosen : null) ??
    (usable.includes(defaultName) ? defaultName : null) ??
    usable[0] ??
    null
  );
}

/** The client org a page works for: the one chosen, unless the settings no longer allow it, then their first. */
export function clientOrgOf(
  config: Pick<PortalConfigResponse, 'clientOrgIds'>,
  chosen: number | null,
): number {
  return chosen !== null && config.clientOrgIds.includes(chosen)
    ? chosen
    : (config.clientOrgIds[0] ?? 0);
}
