import { CodeBlock } from '@/shared/ui/code-block';

export type CopyFormat = 'curl' | 'powershell' | 'fetch';

/** "Copy as": one description of the call, in each form (made by the portal server). */
export const copyFormats: ReadonlyArray<{ as: CopyFormat; name: string; label: string }> = [
  { as: 'curl', name: 'cURL', label: 'cURL command' },
  { as: 'powershell', name: 'PowerShell', label: 'PowerShell script' },
  { as: 'fetch', name: 'Node fetch', label: 'Node fetch script' },
];

export function Copied({
  copy,
}: {
  copy: { as: CopyFormat; text: string; snippet: string; copied: boolean };
}) {
  const format = copyFormats.find(({ as }) => as === copy.as) ?? copyFormats[0];
  const label = format?.label ?? 'Command';
  const where =
    copy.as === 'curl' ? 'your shell' : copy.as === 'powershell' ? 'PowerShell' : 'the environment';
  return (
    <div className="inspector__curl">
      <p role="status">
        {copy.copied
          ? `The ${label} is copied. It reads the key and the secret from ${where}:`
          : `The ${label} (copy it from here). It reads the key and the secret from ${where}:`}
      </p>
      <CodeBlock label={label} className="inspector__code">
        {copy.text}
      </CodeBlock>
      {copy.as === 'curl' ? (
        <>
          <p className="field__hint">
            Set <code>VMS_API_KEY</code> and <code>VMS_API_SECRET</code> first; the signature is
            computed by:
          </p>
          <CodeBlock label="Signature snippet" className="inspector__code">
            {copy.snippet}
          </CodeBlock>
        </>
      ) : copy.as === 'powershell' ? (
        <p className="field__hint">
          Set <code>$env:VMS_API_KEY</code> and <code>$env:VMS_API_SECRET</code> first; the script
          computes the signature itself.
        </p>
      ) : (
        <p className="field__hint">
          Save it as <code>call.mjs</code>, set <code>VMS_API_KEY</code> and{' '}
          <code>VMS_API_SECRET</code>, and run <code>node call.mjs</code> (Node 18 or later); it
          computes the signature itself.
        </p>
      )}
    </div>
  );
}
