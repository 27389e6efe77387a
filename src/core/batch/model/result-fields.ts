import { z } from 'zod';
import type { DateFormat, FieldIssue, PayloadKindDescriptor } from '@/domain';
import { withFieldLabels } from '@/domain';
import type { Tone } from '@/shared/ui/status-badge';
import type { ResultRow, WireItem } from './batch-kind';

/** An item's value, trimmed; '' when absent. */
export const readItem = (item: WireItem, key: string) => (item[key] ?? '').trim();

/** How a result status reads for its kind: success, error, warning (Incomplete), pending. */
export function statusTone(
  kind: Pick<PayloadKindDescriptor, 'statusMeanings'>,
  status: string,
): Tone {
  return Object.hasOwn(kind.statusMeanings, status)
    ? (kind.statusMeanings[status] ?? 'neutral')
    : 'neutral';
}

const rowsSchemas = new WeakMap<PayloadKindDescriptor, z.ZodType<ResultRow[]>>();

/**
 * GET …results of a kind: one row per item of the batch, in order, each with its status's tone
 * (a status the kind does not know is neutral). Pending and Error mean the same for every kind.
 */
export function resultRowsOf(kind: PayloadKindDescriptor): z.ZodType<ResultRow[]> {
  let schema = rowsSchemas.get(kind);
  if (!schema) {
    schema = z.array(
      kind.resultRowSchema.transform((read): ResultRow => ({
        ...read,
        tone: statusTone(kind, read.status),
        pending: read.status === 'Pending',
        failed: read.status === 'Error',
      })),
      { error: `the results must be a JSON array with one row per ${kind.noun.one}` },
    );
    rowsSchemas.set(kind, schema);
  }
  return schema;
}

/** A VMS message with each field named by its label first, its wire name second. */
export const describeMessage = (kind: Pick<PayloadKindDescriptor, 'catalog'>, message: string) =>
  withFieldLabels(message, kind.catalog);

/**
 * An item's problems under its kind's rules, by wire key; [] when it may be sent. A candidate's
 * requisition is not known here: the form checked the item against it, and the VMS checks it
 * again.
 */
export const itemIssues = (
  kind: Pick<PayloadKindDescriptor, 'itemIssues'>,
  item: WireItem,
  dateFormat: DateFormat,
): FieldIssue[] => kind.itemIssues(item, { dateFormat });
