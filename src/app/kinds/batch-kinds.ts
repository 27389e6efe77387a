import type { BatchKind } from '../../features/batch/model/batch-kind';
import { requisitionKind } from './requisition-kind';

/** The payload kinds the portal sends; the candidate kind joins with its workspace (issue 6). */
export const batchKinds: readonly BatchKind[] = [requisitionKind];
