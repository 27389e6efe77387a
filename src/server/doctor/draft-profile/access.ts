import {
  describeRecipe,
  sandboxSignatureRecipe,
  vmsCallPath,
  type SignatureRecipe,
} from '@/domain/vms-profile';
import type { ProbeAnswer } from '@/server/doctor/probe-client';
import { arrayPointer } from '@/server/doctor/probe-context';
import { ok, orgQuery, parseJson } from '@/server/doctor/probe-outcome';
import type { DraftSession } from './session';
import { listPathShapes } from './shapes';

/**
 * The first thing a draft needs: a signed GET the VMS accepts. Each recipe to try (the one a
 * signed example reproduces, or the recipes VMSs are known to use) is tried on each list path
 * shape, until the VMS answers one with an array of records: that proves the recipe and the
 * list's path at once.
 */

/** The recipes known without an example: the presets' and the documented other VMS's. */
export const knownRecipes: SignatureRecipe[] = [
  sandboxSignatureRecipe,
  ...(['base64', 'hex'] as const).map((encoding): SignatureRecipe => ({
    hash: 'hmac-sha256',
    order: ['key', 'timestamp'],
    timestamp: { form: 'unix-seconds', travel: { header: 'x-timestamp' } },
    encoding,
    keyHeader: 'x-api-key',
    signatureHeader: 'x-signature',
  })),
];

export interface Access {
  recipe: SignatureRecipe;
  listPath: string;
  /** The accepted list answer, and the call as sent. */
  answer: ProbeAnswer;
  call: string;
  /** The recipes the VMS refused on the same path, for the evidence. */
  refused: string[];
}

/** The list's own call for the first client org: nothing filtered, the first page. */
export function listCall(session: DraftSession, extra: Record<string, string> = {}): string {
  const orgId = session.target.clientOrgIds[0] ?? 0;
  return vmsCallPath(session.profile, 'requisitions', orgQuery(session.target, orgId, extra));
}

export async function findAccess(
  session: DraftSession,
  recipes: readonly SignatureRecipe[],
): Promise<Access | null> {
  const paths = listPathShapes();
  for (const [at, recipe] of recipes.entries()) {
    for (const path of paths) {
      session.learn((profile) => ({
        ...profile,
        signature: recipe,
        paths: { ...profile.paths, requisitions: path },
      }));
      const call = listCall(session);
      const answer = await session.get(call);
      // A list answer holds an array of records somewhere near its top, even when empty.
      if (ok(answer) && arrayPointer(parseJson(answer.text)) !== null) {
        const refused = recipes.slice(0, at).map((other) => describeRecipe(other));
        return { recipe, listPath: path, answer, call, refused };
      }
    }
  }
  return null;
}
