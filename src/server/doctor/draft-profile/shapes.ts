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
  const prefix = prefixOf(listPath);
  const operation = kind === 'requisition' ? 'requisitionresults' : 'candidateresults';
  const presets = profilePresetNames.map((name) => profilePresets[name]().paths[operation]);
  const b = '{batchid}';
  const shapes = [
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
  ];
  return unique([...(prefix === '' ? presets : []), ...shapes.map((shape) => `${prefix}${shape}`)]);
}

/**
 * Where one kind's batches may be POSTed, near a list found at `listPath`: the presets' own, the
 * names beside the list's (`requisitionimport`, `requisition-import`), the REST style
 * (`requisitions/import`, `…/batches`, `…/submit`), the query style (`import?type=requisition`),
 * and last the list's own path (a REST create).
 */
export function importPathShapes(kind: 'requisition' | 'candidate', listPath: string): string[] {
  const prefix = prefixOf(listPath);
  const operation = kind === 'requisition' ? 'requisitionimport' : 'candidates';
  const presets = profilePresetNames.map((name) => profilePresets[name]().paths[operation]);
  const shapes = [
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
  ];
  return unique([...(prefix === '' ? presets : []), ...shapes.map((shape) => `${prefix}${shape}`)]);
}
