import { z } from 'zod';

/**
 * The connection doctor's report: what each safe probe of a VMS connection found, shared by the
 * server that runs the probes, the `npm run doctor` command that prints them and the admin page
 * that shows them. A probe passes, fails, or cannot tell (undecided: skipped because a probe it
 * needs failed, or the VMS gave nothing to judge by); each that does not pass says what to change.
 */

export const probeIds = [
  'reachable',
  'clock',
  'credentials',
  'clientOrgs',
  'listRecords',
  'paging',
  'filter',
  'resultsPaths',
  'dates',
  'sendTest',
] as const;
export type ProbeId = (typeof probeIds)[number];

export const probeVerdicts = ['passed', 'failed', 'undecided'] as const;
export type ProbeVerdict = (typeof probeVerdicts)[number];

/** What each probe is called where people read it. */
export const probeTitles: Record<ProbeId, string> = {
  reachable: 'VMS reachable',
  clock: 'Clock',
  credentials: 'Key and signature',
  clientOrgs: 'Client orgs',
  listRecords: 'Requisition list',
  paging: 'List paging',
  filter: 'List filter',
  resultsPaths: 'Results paths',
  dates: 'Dates',
  sendTest: 'Test requisition',
};

export const probeResultSchema = z.object({
  id: z.enum(probeIds),
  title: z.string(),
  verdict: z.enum(probeVerdicts),
  /** One line: what the probe saw. */
  finding: z.string(),
  /** What to change (the profile key or setting), when the probe did not pass; null otherwise. */
  fix: z.string().nullable(),
  /** What the verdict rests on: each call the probe made and what came back, one line each. */
  evidence: z.array(z.string()).default([]),
});
export type ProbeResult = z.infer<typeof probeResultSchema>;

export const doctorReportSchema = z.object({
  connection: z.string(),
  /** Where the VMS is: its host, or "embedded sandbox". */
  vms: z.string(),
  checkedAt: z.string(),
  /** failed when any probe failed; undecided when none failed but some could not tell. */
  verdict: z.enum(probeVerdicts),
  probes: z.array(probeResultSchema),
});
export type DoctorReport = z.infer<typeof doctorReportSchema>;

/** The report's overall verdict from its probes'. */
export function overallVerdict(probes: readonly Pick<ProbeResult, 'verdict'>[]): ProbeVerdict {
  if (probes.some((probe) => probe.verdict === 'failed')) return 'failed';
  if (probes.some((probe) => probe.verdict === 'undecided')) return 'undecided';
  return 'passed';
}

/** The body of `POST /api/connections/:name/check`: the probes only, unless a test send is asked for. */
export const connectionCheckRequestSchema = z
  .strictObject({
    sendTest: z.boolean().default(false),
    force: z.boolean().default(false),
  })
  .default({ sendTest: false, force: false });
