import type { FastifyBaseLogger } from 'fastify';
import { listTotalHeader } from '@/domain/vms-contract';
import { listTotalFromVms, type VmsProfile } from '@/domain/vms-profile';

/**
 * The header that hands the VMS's count of the client's records (`list.total`, read from the
 * list's first answer) on to the browser, whose refresh is checked against it. None when the
 * profile names no total; none, and a warning in the log, when the answer has none there: the
 * browser then has nothing to check against, and the connection check names the key.
 */
export function listTotalHeaders(
  profile: VmsProfile,
  firstAnswer: string,
  log: FastifyBaseLogger,
): Record<string, string> {
  const total = listTotalFromVms(profile, firstAnswer);
  if (total === null) return {};
  if (typeof total === 'number') return { [listTotalHeader]: String(total) };
  log.warn(
    { operation: 'requisitions', problem: total.unreadable },
    'vms answer not in its profile',
  );
  return {};
}
