import type { BatchKind } from '@/core/batch/model/batch-kind';
import { candidateKind } from '@/features/candidates/kind/candidate-kind';
import { requisitionKind } from '@/features/requisitions/kind/requisition-kind';

/** The payload kinds the portal sends, each with its workspace. */
export const batchKinds: readonly BatchKind[] = [requisitionKind, candidateKind];
