import type { BatchKind } from '@/core/batch/model/batch-kind';
import { resultRowsOf } from '@/core/batch/model/result-fields';
import type { CaseItem } from '@/core/suites/components/save-as-cases';
import type { JournalDetail } from '@/domain/journal';
import { expectationFrom } from '@/domain/suite-cases';
import { requestJson } from '@/shared/api/http';
import { vmsUrl } from '@/shared/api/vms';
import { isMasked, replayElements } from './replay';

/**
 * A sent batch's items as cases (decision 038), each expecting the outcome the VMS gave it: the
 * batch's results are read now (GET …results, through the proxy like any read), row by row.
 * A batch not yet finished, or an item kept raw, cannot be a case: the error says so.
 */
export async function savedCaseItems(
  kind: BatchKind,
  entry: JournalDetail,
  fallbackVendorOrgId: number,
): Promise<CaseItem[]> {
  if (entry.requestBody && isMasked(entry.requestBody)) {
    throw new Error(
      `Call #${entry.id} is shown with its personal values masked: reveal it first to save its items as cases.`,
    );
  }
  const elements = entry.requestBody ? replayElements(entry.requestBody) : null;
  if (!elements || entry.batchId === null || entry.clientOrgId === null) {
    throw new Error(
      `Call #${entry.id} has no batch the VMS accepted, with its items kept whole, to save as cases.`,
    );
  }
  const raw = elements.findIndex((element) => element.raw !== undefined);
  if (raw >= 0) {
    throw new Error(
      `Item ${raw + 1} of call #${entry.id} is not an object of text values, so it cannot be a case; edit it with “Edit and send” first.`,
    );
  }
  const rows = (
    await requestJson(
      vmsUrl(
        kind.resultsOperation,
        { clientOrgId: entry.clientOrgId, vendorOrgId: entry.vendorOrgId ?? fallbackVendorOrgId },
        { batchid: entry.batchId },
      ),
      resultRowsOf(kind),
      `Reading the results of batch ${entry.batchId}`,
    )
  ).data;
  const pending = rows.filter((row) => row.pending).length;
  if (rows.length < elements.length || pending > 0) {
    throw new Error(
      `The VMS has not finished batch ${entry.batchId}: ${pending || elements.length - rows.length} of ${elements.length} items have no outcome yet. Save them as cases once every item has one.`,
    );
  }
  return elements.map((element, index) => {
    const row = rows.find((candidate) => candidate.row === index + 1);
    const expect = row ? expectationFrom(kind.id, row) : null;
    if (!expect) {
      throw new Error(
        `Row ${index + 1} of batch ${entry.batchId} came back “${row?.status ?? 'missing'}”, which a case cannot expect.`,
      );
    }
    return { item: element.wire, expect, origin: `call #${entry.id}, row ${index + 1}` };
  });
}
