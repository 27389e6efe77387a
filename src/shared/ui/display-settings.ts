import { z } from 'zod';
import { localStore, storageKey } from '@/shared/storage/local-store';

/**
 * How this browser shows the portal: the colour theme (the system's, or Light or Dark chosen in
 * Settings) and whether each field's wire name (`titlerole`) shows beside its label (for QA).
 * Applied as attributes on <html> that the stylesheet reads, so changing them re-renders nothing.
 */
const themeValues = ['system', 'light', 'dark'] as const;
export type Theme = (typeof themeValues)[number];
const themeLabels: Record<Theme, string> = {
  system: 'As the system is set (light or dark)',
  light: 'Light',
  dark: 'Dark',
};
export const themes = themeValues.map((value) => ({ value, label: themeLabels[value] }));

export interface DisplaySettings {
  theme: Theme;
  wireNames: boolean;
}

const defaults: DisplaySettings = { theme: 'system', wireNames: false };

export const displaySettings = localStore<DisplaySettings>(
  storageKey('display'),
  z.object({
    theme: z.enum(themeValues),
    wireNames: z.boolean(),
  }),
  defaults,
);

/**
 * Sets <html>'s attributes from the settings. It also runs on its own, before any module, as the
 * page's inline script (beforePaintScript): so it uses nothing from outside itself, and reads what
 * it is given loosely (anything but a known choice is the default).
 */
function applyDisplay(settings: unknown, root: HTMLElement): void {
  const { theme, wireNames } = (
    typeof settings === 'object' && settings !== null ? settings : {}
  ) as {
    theme?: unknown;
    wireNames?: unknown;
  };
  if (theme === 'light' || theme === 'dark') root.dataset['theme'] = theme;
  else delete root.dataset['theme'];
  if (wireNames === true) root.dataset['wireNames'] = 'shown';
  else delete root.dataset['wireNames'];
}

/** Applies the settings now and whenever they change (in this tab or another). */
export function applyDisplaySettings(root: HTMLElement = document.documentElement): void {
  applyDisplay(displaySettings.get(), root);
  displaySettings.subscribe(() => applyDisplay(displaySettings.get(), root));
}

/**
 * The page's one inline script, in <head> before the style sheet (the build writes it into
 * index.html; the server's CSP allows it by its hash): the stored settings applied before the
 * prerendered page is first drawn, so a page chosen dark is never drawn light first. Storage that
 * cannot be read leaves the defaults, until the app reads it.
 */
export function beforePaintScript(): string {
  return `try{(${applyDisplay.toString()})(JSON.parse(localStorage.getItem(${JSON.stringify(displaySettings.key)})),document.documentElement)}catch(e){}`;
}
