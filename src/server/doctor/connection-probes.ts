import { vmsCallPath } from '@/domain/vms-profile';
import { networkFailure } from './probe-client';
import type { ProbeContext as Context } from './probe-context';
import {
  fail,
  ok,
  orgQuery,
  pass,
  reqIdFilterPath,
  said,
  undecided,
  type Outcome,
} from './probe-outcome';

/*
 * The connection's probes: is the VMS there, is the clock near enough, do the credentials and the
 * signature open it, and may this vendor act for each client org.
 */

/** The clock differences the doctor warns at and fails at; the sandbox refuses beyond 300 s. */
export const clockWarnSeconds = 60;
export const clockFailSeconds = 240;

const recipeFix =
  'Check the API key and secret of this connection (VMS_API_KEY, VMS_API_SECRET) against the VMS account page; then the profile\'s "signature" key: if the VMS signs differently, run `npm run doctor -- find-recipe` with a signed example from the VMS\'s onboarding documents and put its answer in the profile\'s "signature".';

/** The requisitions GET that lists nothing: only a Req_Id of 0, which no VMS gives. */
export async function probeReachable(context: Context): Promise<Outcome> {
  const { target, client } = context;
  try {
    const answer = await client.call('GET', '');
    context.reachable = answer;
    const where = new URL(target.baseUrl).host;
    return pass(
      `${where} answered over HTTP (status ${answer.status} for the base address, in ${Math.max(0, answer.answeredAt - answer.sentAt)} ms).`,
    );
  } catch (error) {
    const failure = networkFailure(error, target);
    return fail(failure.finding, failure.fix);
  }
}

export async function probeClock(context: Context): Promise<Outcome> {
  const answer = context.reachable;
  const header = answer?.headers.date;
  const vmsTime = header === undefined ? Number.NaN : Date.parse(header);
  if (!answer || Number.isNaN(vmsTime)) {
    return undecided(
      'The VMS sent no readable Date header, so its clock cannot be compared with this one.',
      'Make sure this machine keeps its clock in sync (NTP): signatures carry the time, and a VMS refuses those too far from its own clock.',
    );
  }
  // A Date header is whole seconds, written at some moment of its second: its middle is the
  // best guess, against the middle of the call on this side.
  const here = (answer.sentAt + answer.answeredAt) / 2;
  const seconds = Math.round((vmsTime + 500 - here) / 1000);
  context.clockSkewSeconds = seconds;
  const how =
    seconds === 0
      ? 'agrees with this machine to the second'
      : `is ${Math.abs(seconds)} s ${seconds > 0 ? 'ahead of' : 'behind'} this machine`;
  const fix = `Sync this machine's clock (NTP: timedatectl set-ntp true, or your platform's time service); if this machine is right, the VMS's clock is off: tell its operator.`;
  if (Math.abs(seconds) >= clockFailSeconds) {
    return fail(
      `The VMS's clock (Date header) ${how}: signed calls carry this machine's time, and a VMS refuses a timestamp a few minutes off (the sandbox: more than 300 s).`,
      fix,
    );
  }
  if (Math.abs(seconds) >= clockWarnSeconds) {
    return undecided(
      `The VMS's clock (Date header) ${how}: still within what most VMSs accept, but close to where signatures are refused.`,
      fix,
    );
  }
  return pass(`The VMS's clock (Date header) ${how}.`);
}

export async function probeCredentials(context: Context): Promise<Outcome> {
  const { target, client } = context;
  const orgId = target.clientOrgIds[0];
  if (orgId === undefined) {
    return fail(
      'The connection lists no client org to ask the VMS about.',
      'List the client orgs this portal acts for in VMS_CLIENT_ORGS.',
    );
  }
  const answer = await client.call('GET', reqIdFilterPath(target, orgId, '0'));
  if (ok(answer)) {
    return pass(
      `The VMS accepted the key and the signature (a requisitions list for client org ${orgId}: status ${answer.status}).`,
    );
  }
  if (answer.status === 401 || answer.status === 403) {
    return fail(
      `The VMS refused the key or the signature (status ${answer.status}, ${said(target.profile, answer)}).`,
      `${recipeFix} If the VMS names the vendor org, check VMS_VENDOR_ORG_ID (${target.vendorOrgId}).`,
    );
  }
  if (answer.status !== 404) {
    // A filter the VMS cannot read (an operator word of another VMS) is the filter check's to
    // name: the list without it shows whether the key and signature are accepted.
    const unfiltered = await client.call(
      'GET',
      vmsCallPath(target.profile, 'requisitions', orgQuery(target, orgId)),
    );
    if (ok(unfiltered)) {
      return pass(
        `The VMS accepted the key and the signature (the requisitions list for client org ${orgId}: status ${unfiltered.status}; filtered on Req ID = 0 it answered ${answer.status}, see the list filter check).`,
      );
    }
  }
  if (answer.status === 404) {
    return fail(
      `The VMS has no requisitions list at ${target.profile.paths.requisitions} (status 404, ${said(target.profile, answer)}).`,
      'Set paths.requisitions in the profile to where the VMS lists requisitions (its API reference names it).',
    );
  }
  return fail(
    `The requisitions list for client org ${orgId} answered status ${answer.status} (${said(target.profile, answer)}).`,
    "Check paths.requisitions and list.filter (the filter parameter names and list.filter.operators) in the profile against the VMS's API reference.",
  );
}

export async function probeClientOrgs(context: Context): Promise<Outcome> {
  const { target, client } = context;
  const refused: string[] = [];
  for (const orgId of target.clientOrgIds) {
    let answer = await client.call('GET', reqIdFilterPath(target, orgId, '0'));
    if (!ok(answer) && answer.status !== 401 && answer.status !== 403) {
      // A filter the VMS cannot read is the filter check's to name, not the org's refusal.
      answer = await client.call(
        'GET',
        vmsCallPath(target.profile, 'requisitions', orgQuery(target, orgId)),
      );
    }
    if (!ok(answer)) {
      refused.push(
        `client org ${orgId} (status ${answer.status}, ${said(target.profile, answer)})`,
      );
    }
  }
  const all = target.clientOrgIds.join(', ');
  if (refused.length === 0) {
    return pass(`The VMS accepts this key for every client org of the connection (${all}).`);
  }
  return fail(
    `The VMS refused ${refused.join('; ')}.`,
    "Remove the refused org from VMS_CLIENT_ORGS (the connection's client orgs), or ask the VMS to let this API key act for it.",
  );
}
