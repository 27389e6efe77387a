import type { VmsProfile } from '@/domain/vms-profile';
import { profileFromSetting } from '@/node/profile-setting';
import { sandboxDemo } from '@/sandbox/index';
import type { DoctorTarget } from '@/server/doctor/target';

/** The documented example of a VMS unlike the sandbox in every group a profile describes. */
export const exampleProfileFile = new URL(
  '../../docs/examples/profile-other-vms.json',
  import.meta.url,
).pathname;

export function exampleProfile(): VmsProfile {
  const reading = profileFromSetting('VMS_PROFILE', exampleProfileFile, 'YYYY-MM-DD');
  if ('problem' in reading) throw new Error(reading.problem);
  return reading.profile;
}

/** What the doctor probes: a VMS at `url`, with the sandbox's demo credentials and orgs. */
export function doctorTarget(
  url: string,
  profile: VmsProfile,
  more: Partial<DoctorTarget> = {},
): DoctorTarget {
  return {
    name: 'default',
    baseUrl: `${url}/`,
    apiKey: sandboxDemo.apiKey,
    apiSecret: sandboxDemo.apiSecret,
    clientOrgIds: [...sandboxDemo.clientOrgIds],
    vendorOrgId: sandboxDemo.vendorOrgId,
    profile,
    production: false,
    timeoutMs: 5000,
    label: 'test VMS',
    ...more,
  };
}
