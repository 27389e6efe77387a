import type { TargetRequisition } from './target-requisition';

const isDecimal = (value: string) => /^\d+(\.\d+)?$/.test(value.trim());

/**
 * What the bill-rate field says beside itself for the chosen requisition: its band (hourly low
 * to high) and, where candidates may not exceed the hourly high, that cap, and a warning as soon
 * as the typed rate is above it. Null when the requisition gives no band.
 */
export function billRateNote(
  requisition: Pick<TargetRequisition, 'hourlyHigh' | 'hourlyLow' | 'maximumBillRate'> | null,
  typed: string,
): { band: string; warning: string | null } | null {
  if (!requisition) return null;
  const high = requisition.hourlyHigh.trim();
  const low = requisition.hourlyLow.trim();
  if (!isDecimal(high) && !isDecimal(low)) return null;
  const capped = requisition.maximumBillRate === '0' && isDecimal(high);
  const band =
    isDecimal(low) && isDecimal(high)
      ? `This requisition’s band: ${low} to ${high} an hour`
      : isDecimal(high)
        ? `This requisition’s hourly high: ${high}`
        : `This requisition’s hourly low: ${low}`;
  const warning =
    capped && isDecimal(typed) && Number(typed) > Number(high)
      ? `${typed.trim()} is above the hourly high of ${high}, which this requisition does not allow: the VMS will likely answer Error.`
      : null;
  return { band: `${band}${capped ? `; no candidate above ${high}` : ''}.`, warning };
}
