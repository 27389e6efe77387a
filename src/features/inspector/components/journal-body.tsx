import type { JournalBody } from '@/domain/journal';
import { prettyBody } from '@/features/inspector/model/replay';
import { groupDigits } from '@/shared/lib/format';
import { CodeBlock } from '@/shared/ui/code-block';

/** What the masking of a body did, in words; '' for a body shown as kept. */
function maskedText(body: JournalBody): string {
  const { personal } = body;
  if (!personal) return '';
  switch (personal.reading) {
    case 'withheld':
      return ', not shown: not text, so its personal values cannot be told apart';
    case 'text':
      return `, not JSON: ${personal.masked} personal ${personal.masked === 1 ? 'value' : 'values'} masked where a field name showed them`;
    default:
      return personal.masked === 0
        ? ''
        : `, ${personal.masked} personal ${personal.masked === 1 ? 'value' : 'values'} masked`;
  }
}

/** A call's request or answer body as kept, and what was cut out or masked of it. */
export function Body({ title, body }: { title: string; body: JournalBody | null }) {
  if (!body) return <p className="field__hint">{title}: none.</p>;
  return (
    <details open className="inspector__body-part">
      <summary>
        {title} ({groupDigits(body.size)} bytes
        {body.truncated ? ', only the first part kept' : ''}
        {body.redacted ? ', a secret cut out' : ''}
        {maskedText(body)})
      </summary>
      <CodeBlock label={title} className="inspector__code">
        {prettyBody(body)}
      </CodeBlock>
      <p className="field__hint">SHA-256 {body.sha256}</p>
    </details>
  );
}
