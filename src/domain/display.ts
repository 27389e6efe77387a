/**
 * How a browser shows the portal: the colour theme (the system's, or Light or Dark chosen in
 * Settings) and whether each field's wire name (`titlerole`) shows beside its label (for QA).
 * The stylesheet reads them as attributes of <html>: the app sets them, and the server puts the
 * same ones in the page it sends (decision 040), read from a cookie the app keeps in step, so a
 * page chosen dark is never drawn light first.
 */
export const themeValues = ['system', 'light', 'dark'] as const;
export type Theme = (typeof themeValues)[number];

export interface DisplaySettings {
  theme: Theme;
  wireNames: boolean;
}

export const defaultDisplay: DisplaySettings = { theme: 'system', wireNames: false };

/** The attributes of <html> the stylesheet reads, and what the settings make of them. */
export const displayAttributeNames = ['data-theme', 'data-wire-names'] as const;
export function displayAttributes({
  theme,
  wireNames,
}: DisplaySettings): Partial<Record<(typeof displayAttributeNames)[number], string>> {
  return {
    ...(theme === 'system' ? {} : { 'data-theme': theme }),
    ...(wireNames ? { 'data-wire-names': 'shown' } : {}),
  };
}

/** The cookie the settings are mirrored in, for the server: `dark`, `light.wire`, `system.wire`. */
export const displayCookieName = 'vms_display';

export function displayCookieValue({ theme, wireNames }: DisplaySettings): string {
  return wireNames ? `${theme}.wire` : theme;
}

/** The settings a cookie's value says; anything it does not say plainly is the default. */
export function displayFromCookie(value: string | undefined): DisplaySettings {
  const [theme, wire, ...rest] = (value ?? '').split('.');
  if (rest.length > 0 || (wire !== undefined && wire !== 'wire')) return defaultDisplay;
  const known = themeValues.find((candidate) => candidate === theme);
  return known ? { theme: known, wireNames: wire === 'wire' } : defaultDisplay;
}
