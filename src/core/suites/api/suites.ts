import { queryOptions } from '@tanstack/react-query';
import { suiteSchema, type Suite, type SuiteCase } from '@/domain/suite-cases';
import {
  suiteDetailSchema,
  suiteListSchema,
  suiteRunListSchema,
  suiteRunSchema,
  suiteVersionListSchema,
  type StartRun,
} from '@/domain/suite-run';
import {
  schedulePreviewSchema,
  suiteScheduleListSchema,
  suiteScheduleSchema,
  type NewSchedule,
  type ScheduleChange,
} from '@/domain/suite-schedule';
import { requestJson, requestOk } from '@/shared/api/http';

/**
 * QA suites kept on the portal server and their runs (decision 038), as its API offers them:
 * the answers parsed with the schemas the server answers with.
 */

/** Every query about suites starts with this key: a change refreshes them all. */
export const suitesKey = ['suites'] as const;

export function suitesQueryOptions() {
  return queryOptions({
    queryKey: [...suitesKey, 'list'],
    queryFn: async ({ signal }) =>
      (await requestJson('/api/suites', suiteListSchema, 'Loading the suites', { signal })).data
        .suites,
  });
}

export function suiteQueryOptions(id: number, version?: number) {
  return queryOptions({
    queryKey: [...suitesKey, id, 'version', version ?? 'latest'],
    queryFn: async ({ signal }) =>
      (
        await requestJson(
          `/api/suites/${id}${version === undefined ? '' : `?version=${version}`}`,
          suiteDetailSchema,
          `Loading suite ${id}`,
          { signal },
        )
      ).data,
  });
}

export function suiteVersionsQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...suitesKey, id, 'versions'],
    queryFn: async ({ signal }) =>
      (
        await requestJson(
          `/api/suites/${id}/versions`,
          suiteVersionListSchema,
          `Loading the versions of suite ${id}`,
          { signal },
        )
      ).data.versions,
  });
}

export function suiteRunsQueryOptions(suiteId: number) {
  return queryOptions({
    queryKey: [...suitesKey, suiteId, 'runs'],
    queryFn: async ({ signal }) =>
      (
        await requestJson(
          `/api/suite-runs?suite=${suiteId}&limit=20`,
          suiteRunListSchema,
          'Loading the runs',
          { signal },
        )
      ).data.runs,
  });
}

/** The latest runs of suite files (`npm run suite` with a file): they have no suite page. */
export function fileRunsQueryOptions() {
  return queryOptions({
    queryKey: [...suitesKey, 'file-runs'],
    queryFn: async ({ signal }) =>
      (
        await requestJson(
          '/api/suite-runs?suite=files&limit=20',
          suiteRunListSchema,
          'Loading the runs of suite files',
          { signal },
        )
      ).data.runs,
  });
}

/** A run, read again every second while it goes. */
export function suiteRunQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...suitesKey, 'run', id],
    queryFn: async ({ signal }) =>
      (await requestJson(`/api/suite-runs/${id}`, suiteRunSchema, `Loading run ${id}`, { signal }))
        .data,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1000 : false),
  });
}

export async function createSuite(suite: Suite) {
  return (
    await requestJson('/api/suites', suiteDetailSchema, `Saving the suite ${suite.name}`, {
      method: 'POST',
      body: { suite },
    })
  ).data;
}

export async function saveSuite(id: number, baseVersion: number, suite: Suite) {
  return (
    await requestJson(`/api/suites/${id}`, suiteDetailSchema, `Saving the suite ${suite.name}`, {
      method: 'PUT',
      body: { baseVersion, suite },
    })
  ).data;
}

export async function addCases(id: number, cases: readonly SuiteCase[]) {
  return (
    await requestJson(`/api/suites/${id}/cases`, suiteDetailSchema, 'Adding the cases', {
      method: 'POST',
      body: { cases },
    })
  ).data;
}

export async function deleteSuite(id: number) {
  await requestOk(`/api/suites/${id}`, `Deleting suite ${id}`, { method: 'DELETE' });
}

export async function startRun(body: StartRun) {
  return (
    await requestJson('/api/suite-runs', suiteRunSchema, 'Starting the run', {
      method: 'POST',
      body,
    })
  ).data;
}

/** A suite's schedules (decision 057), each with its next occurrences. */
export function schedulesQueryOptions(suiteId: number) {
  return queryOptions({
    queryKey: [...suitesKey, suiteId, 'schedules'],
    queryFn: async ({ signal }) =>
      (
        await requestJson(
          `/api/suites/${suiteId}/schedules`,
          suiteScheduleListSchema,
          'Loading the schedules',
          { signal },
        )
      ).data.schedules,
  });
}

/** The next occurrences of a rule as typed; the server's words when it does not read. */
export async function previewSchedule(cron: string, timeZone: string, signal?: AbortSignal) {
  const query = new URLSearchParams({ cron, timeZone });
  return (
    await requestJson(
      `/api/suite-schedules/preview?${query.toString()}`,
      schedulePreviewSchema,
      'Reading the schedule',
      signal ? { signal } : {},
    )
  ).data.next;
}

export async function addSchedule(suiteId: number, schedule: NewSchedule) {
  return (
    await requestJson(
      `/api/suites/${suiteId}/schedules`,
      suiteScheduleSchema,
      'Adding the schedule',
      {
        method: 'POST',
        body: schedule,
      },
    )
  ).data;
}

export async function changeSchedule(suiteId: number, scheduleId: number, change: ScheduleChange) {
  return (
    await requestJson(
      `/api/suites/${suiteId}/schedules/${scheduleId}`,
      suiteScheduleSchema,
      'Changing the schedule',
      { method: 'PUT', body: change },
    )
  ).data;
}

export async function removeSchedule(suiteId: number, scheduleId: number) {
  await requestOk(`/api/suites/${suiteId}/schedules/${scheduleId}`, 'Removing the schedule', {
    method: 'DELETE',
  });
}

/** Where a suite's file downloads from (a version, or the latest). */
export const suiteExportHref = (id: number, version?: number) =>
  `/api/suites/${id}/export${version === undefined ? '' : `?version=${version}`}`;

/** Where a run's JUnit XML and JSON report download from. */
export const runJunitHref = (id: number) => `/api/suite-runs/${id}/junit`;
export const runJsonHref = (id: number) => `/api/suite-runs/${id}`;

/** A file chosen for import, read as a suite file: the suite, or why it is not one. */
export async function readSuiteFile(file: File): Promise<{ suite: Suite } | { problem: string }> {
  let text: string;
  try {
    text = await file.text();
  } catch {
    return { problem: `${file.name} could not be read. Choose it again.` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    return {
      problem: `${file.name} is not JSON. A suite file is the JSON a suite's Export gives, or one written to the suite schema.`,
    };
  }
  const suite = suiteSchema.safeParse(json);
  if (!suite.success) {
    const issue = suite.error.issues[0];
    return {
      problem: `${file.name} is not a suite: ${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'not a suite'}.`,
    };
  }
  return { suite: suite.data };
}
