import type { BatchKind } from '../../features/batch/model/batch-kind';
import { candidateKind } from './candidate-kind';
import { requisitionKind } from './requisition-kind';

/** The payload kinds the portal sends, each with its workspace. */
export const batchKinds: readonly BatchKind[] = [requisitionKind, candidateKind];
