import { z } from 'zod';
import { localStore, storageKey } from '../storage/local-store';

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

function apply({ theme, wireNames }: DisplaySettings, root: HTMLElement) {
  if (theme === 'system') delete root.dataset['theme'];
  else root.dataset['theme'] = theme;
  if (wireNames) root.dataset['wireNames'] = 'shown';
  else delete root.dataset['wireNames'];
}

/** Applies the settings now and whenever they change (in this tab or another). */
export function applyDisplaySettings(root: HTMLElement = document.documentElement): void {
  apply(displaySettings.get(), root);
  displaySettings.subscribe(() => apply(displaySettings.get(), root));
}
