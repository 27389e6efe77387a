import { readFileSync } from 'node:fs';
import type { DateFormat } from '@/domain/catalog-types';
import {
  profilePresetNames,
  profilePresets,
  readProfile,
  type VmsProfile,
} from '@/domain/vms-profile';

/**
 * A profile setting (VMS_PROFILE for the portal, SANDBOX_PROFILE for `npm run sandbox`): a
 * preset's name, or the path of a JSON file holding a profile. Presets take their date format
 * from VMS_DATE_FORMAT; a file says its own. Returns the profile, or one line saying what is
 * wrong with it, naming the setting and the key.
 */
export function profileFromSetting(
  name: string,
  value: string | undefined,
  dateFormat: DateFormat,
): { profile: VmsProfile } | { problem: string } {
  const presets = Object.fromEntries(
    profilePresetNames.map((preset) => [preset, () => profilePresets[preset](dateFormat)]),
  );
  if (value === undefined) return { profile: profilePresets.sandbox(dateFormat) };
  if (value in presets) {
    const reading = readProfile(value, presets);
    return 'profile' in reading ? reading : { problem: `${name}: ${reading.problems.join('; ')}` };
  }
  let input: unknown;
  try {
    input = JSON.parse(readFileSync(value, 'utf8'));
  } catch (error) {
    const reason =
      error instanceof SyntaxError ? `it is not JSON (${error.message})` : 'it cannot be read';
    return {
      problem: `${name} must be a profile preset (${profilePresetNames.join(', ')}) or the path of a profile JSON file; "${value}" is neither: ${reason}.`,
    };
  }
  const reading = readProfile(input, presets);
  return 'profile' in reading
    ? reading
    : { problem: `${name} (${value}) is not a usable profile: ${reading.problems.join('; ')}.` };
}
