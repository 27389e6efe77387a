import { randomBytes } from 'node:crypto';
import { sandboxProfile, type VmsProfile } from '@/domain/vms-profile';
import { ProbeClient, type ProbeAnswer } from '@/server/doctor/probe-client';
import type { DoctorTarget } from '@/server/doctor/target';

/**
 * One draft's calls to a VMS, signed by the profile drafted so far: GETs, and POSTs only when the
 * draft was asked to send its test requisition (post-side.ts). The target's own profile is never read: what the connection
 * says about its VMS is what the draft is to find out, so the draft starts from the sandbox's and
 * replaces each key as it is proved.
 */
export class DraftSession {
  /** The connection with the profile drafted so far; the client signs each call by it. */
  readonly target: DoctorTarget;
  readonly client: ProbeClient;
  /** Every call made, one line each (`GET path → status`), for a report of what was tried. */
  readonly calls: string[] = [];
  /** A batch id no VMS has given: results asked for it must be "no such batch". */
  readonly unknownBatchId = `draft-${randomBytes(8).toString('hex')}`;

  constructor(connection: DoctorTarget, now: () => number = Date.now) {
    this.target = { ...connection, profile: sandboxProfile() };
    this.client = new ProbeClient(this.target, now);
  }

  get profile(): VmsProfile {
    return this.target.profile;
  }

  /** The profile drafted so far, with `change` laid over it (later calls are signed by it). */
  learn(change: (profile: VmsProfile) => VmsProfile): void {
    this.target.profile = change(this.target.profile);
  }

  async get(path: string): Promise<ProbeAnswer> {
    const answer = await this.client.call('GET', path);
    this.calls.push(`GET ${path} → ${answer.status}`);
    return answer;
  }

  /** Once per call: a POST whose answer was lost may still have arrived. */
  async post(path: string, body: unknown): Promise<ProbeAnswer> {
    const answer = await this.client.call('POST', path, Buffer.from(JSON.stringify(body)));
    this.calls.push(`POST ${path} → ${answer.status}`);
    return answer;
  }

  /** The key, the secret and every signature sent: none may reach the draft or its report. */
  secrets(): string[] {
    return [this.target.apiKey, this.target.apiSecret, ...this.client.signatures];
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
