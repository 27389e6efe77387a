/**
 * Domain benchmark: validate and assemble 1,000 full requisitions (10 skills,
 * 5 questions, all custom fields) and 1,000 full candidates, as a batch is before it is sent.
 * Budget: 1,000 requisitions in under 50 ms on this 2-core machine (median of 21 warm runs).
 */
import { pathToFileURL } from 'node:url';
import type { CandidateForm, DateFormat, RequisitionForm } from '@/domain';
import { candidateFormToWire, requisitionFormToWire, validateBatch } from '@/domain';
import { fullCandidateForm, fullRequisitionForm } from '@/test-support/test-data';
import type { Timing } from './measure';
import { formatTable, timeRuns } from './measure';

const ITEMS = 1000;
const REQUISITION_BUDGET_MS = 50;

export interface DomainBenchResult {
  requisitions: Timing;
  candidates: Timing;
  withinBudget: boolean;
}

function assembleAndValidateRequisitions(forms: RequisitionForm[], dateFormat: DateFormat): void {
  const wires = forms.map((form) => requisitionFormToWire(form, dateFormat));
  const report = validateBatch('requisition', wires, { dateFormat });
  if (!report.valid)
    throw new Error(
      `benchmark data is invalid: ${JSON.stringify(report.items.find((i) => !i.valid))}`,
    );
}

function assembleAndValidateCandidates(forms: CandidateForm[]): void {
  const wires = forms.map((form) => candidateFormToWire(form));
  const report = validateBatch('candidate', wires, {
    dateFormat: 'YYYY-MM-DD',
    requisition: { skillCount: 10, questionCount: 5 },
  });
  if (!report.valid)
    throw new Error(
      `benchmark data is invalid: ${JSON.stringify(report.items.find((i) => !i.valid))}`,
    );
}

export function runDomainBench(): DomainBenchResult {
  const requisitionForms = Array.from({ length: ITEMS }, (_, i) => fullRequisitionForm(i));
  const candidateForms = Array.from({ length: ITEMS }, (_, i) => fullCandidateForm(i));
  const requisitions = timeRuns(() =>
    assembleAndValidateRequisitions(requisitionForms, 'MM/DD/YYYY'),
  );
  const candidates = timeRuns(() => assembleAndValidateCandidates(candidateForms));
  const withinBudget = requisitions.medianMs < REQUISITION_BUDGET_MS;

  const row = (name: string, t: Timing) => ({
    payload: name,
    'items/s (median)': Math.round((ITEMS / t.medianMs) * 1000).toLocaleString('en-US'),
    'ms per 1,000 (median)': t.medianMs.toFixed(1),
    'ms per 1,000 (best)': t.bestMs.toFixed(1),
  });
  console.log(
    `\nDomain: assemble (form → wire) and validate ${ITEMS.toLocaleString('en-US')} full items, ${requisitions.runs} runs after warm-up`,
  );
  console.log(formatTable([row('requisition', requisitions), row('candidate', candidates)]));
  console.log(
    `Budget: 1,000 requisitions < ${REQUISITION_BUDGET_MS} ms → ${withinBudget ? 'met' : 'MISSED'} (${requisitions.medianMs.toFixed(1)} ms; ratio to budget ${(requisitions.medianMs / REQUISITION_BUDGET_MS).toFixed(2)})`,
  );
  return { requisitions, candidates, withinBudget };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = runDomainBench();
  if (!result.withinBudget) process.exitCode = 1;
}
