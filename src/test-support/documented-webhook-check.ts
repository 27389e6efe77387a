import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** A receiver's check of a delivery: true when the signature is the portal's and recent. */
export type WebhookCheck = (secret: string, header: string, rawBody: string) => boolean;

/**
 * The receiver's check as docs/deployment.md prints it, run as printed (its import given from
 * here): a test that verifies with it proves the guide's snippet, not a copy of the signer.
 */
export function documentedWebhookCheck(): WebhookCheck {
  const guide = readFileSync(new URL('../../docs/deployment.md', import.meta.url), 'utf8');
  const snippet =
    /```js\n(import \{ createHmac, timingSafeEqual \} from 'node:crypto';\n[\s\S]*?function fromPortal[\s\S]*?)```/.exec(
      guide,
    )?.[1];
  if (!snippet) throw new Error('docs/deployment.md no longer prints the function fromPortal');
  return new Function(
    'createHmac',
    'timingSafeEqual',
    `${snippet.replace(/^import .*\n/, '')}\nreturn fromPortal;`,
  )(createHmac, timingSafeEqual) as WebhookCheck;
}
