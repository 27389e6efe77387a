import { profilePresetNames, profilePresets } from '@/domain/vms-profile';

/**
 * The path shapes a draft tries: the presets' own, then the same names under the prefixes APIs
 * commonly version themselves by, and for a batch's results both the query style
 * (`requisitionresults?batchid={batchid}`) and the REST style (`batches/{batchid}/…`).
 */

const prefixes = ['', 'api/', 'api/v1/', 'api/v2/', 'v1/', 'v2/'];

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

/**
 * A kind's paths near a list found under `prefix`: the presets' own `operation` (only at the
 * root: a preset's path names its own prefix), then each of `shapes` under the prefix.
 */
function nearList(
  prefix: string,
  operation: 'requisitionresults' | 'candidateresults' | 'requisitionimport' | 'candidates',
  shapes: readonly string[],
): string[] {
  const presets = profilePresetNames.map((name) => profilePresets[name]().paths[operation]);
  return unique([...(prefix === '' ? presets : []), ...shapes.map((shape) => `${prefix}${shape}`)]);
}

/** Where the requisitions list may be. */
export function listPathShapes(): string[] {
  const presets = profilePresetNames.map((name) => profilePresets[name]().paths.requisitions);
  return unique([...presets, ...prefixes.map((prefix) => `${prefix}requisitions`)]);
}

/** The part of the list's path before `requisitions`: where the other operations probably are. */
export function prefixOf(listPath: string): string {
  const at = listPath.lastIndexOf('requisitions');
  return at < 0 ? '' : listPath.slice(0, at);
}

/** Where one kind's results may be, near a list found at `listPath`. */
export function resultsPathShapes(kind: 'requisition' | 'candidate', listPath: string): string[] {
  const b = '{batchid}';
  return nearList(prefixOf(listPath), `${kind}results`, [
    `${kind}results?batchid=${b}`,
    `${kind}-results?batchid=${b}`,
    `${kind}s/results?batchid=${b}`,
    `${kind}results/${b}`,
    `${kind}-results/${b}`,
    `batches/${b}/${kind}results`,
    `batches/${b}/${kind}-results`,
    `batches/${b}/${kind}s`,
    `${kind}s/batches/${b}/results`,
    `${kind}s/batches/${b}`,
  ]);
}

/**
 * Where one kind's batches may be POSTed, near a list found at `listPath`: the presets' own, the
 * names beside the list's (`requisitionimport`, `requisition-import`), the REST style
 * (`requisitions/import`, `…/batches`, `…/submit`), the query style (`import?type=requisition`),
 * and last the list's own path (a REST create).
 */
export function importPathShapes(kind: 'requisition' | 'candidate', listPath: string): string[] {
  return nearList(prefixOf(listPath), kind === 'requisition' ? 'requisitionimport' : 'candidates', [
    `${kind}import`,
    `${kind}-import`,
    `${kind}s/import`,
    `${kind}s/batches`,
    `${kind}s/batch`,
    `${kind}s/submit`,
    `batches/${kind}s`,
    `import?type=${kind}`,
    `${kind}s?action=import`,
    `${kind}s`,
  ]);
}
