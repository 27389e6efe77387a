import { z } from 'zod';
import type { DisplaySettings, Theme } from '@/domain/display';
import {
  defaultDisplay,
  displayAttributeNames,
  displayAttributes,
  displayCookieName,
  displayCookieValue,
  themeValues,
} from '@/domain/display';
import { localStore, storageKey } from '@/shared/storage/local-store';

/**
 * How this browser shows the portal (the domain's DisplaySettings), kept in browser storage and
 * applied as attributes on <html> that the stylesheet reads, so changing them re-renders nothing.
 * They are mirrored in a cookie, for the server to put the same attributes in the page it sends.
 */
const themeLabels: Record<Theme, string> = {
  system: 'As the system is set (light or dark)',
  light: 'Light',
  dark: 'Dark',
};
export const themes = themeValues.map((value) => ({ value, label: themeLabels[value] }));

export const displaySettings = localStore<DisplaySettings>(
  storageKey('display'),
  z.object({
    theme: z.enum(themeValues),
    wireNames: z.boolean(),
  }),
  defaultDisplay,
);

function applyDisplay(settings: DisplaySettings, root: HTMLElement): void {
  const attributes = displayAttributes(settings);
  for (const name of displayAttributeNames) {
    const value = attributes[name];
    if (value === undefined) root.removeAttribute(name);
    else root.setAttribute(name, value);
  }
  // For the pages the server sends from now on: kept a year, sent only to this site (Lax).
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${displayCookieName}=${displayCookieValue(settings)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}

/** Applies the settings now and whenever they change (in this tab or another). */
export function applyDisplaySettings(root: HTMLElement = document.documentElement): void {
  applyDisplay(displaySettings.get(), root);
  displaySettings.subscribe(() => applyDisplay(displaySettings.get(), root));
}
