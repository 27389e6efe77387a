import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { notificationKindLabels } from '@/domain/deliveries';
import { notificationKinds, type NotificationKind } from '@/domain/notifications';
import { escapeHtml } from '@/server/mail/mail-message';
import { readUnsubscribeToken } from './unsubscribe-token';

/** "a batch you sent settled…": the kind as the Settings page names it, addressed to the reader. */
function kindName(kind: NotificationKind): string {
  return notificationKindLabels[kind].replace(/\bI\b/g, 'you');
}

function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"></head>` +
        `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    );
}

const badLink =
  '<p>This unsubscribe link is not one the portal made, or it was cut short. Copy the whole link from the e-mail, or turn e-mail off in the portal under Settings.</p>';

/**
 * `/unsubscribe?token=…` (decision 056): the link in each e-mail. Opening it (GET) only shows what
 * it would turn off and a button, since mail scanners follow links; the button's POST turns it
 * off. A mail client's one-click unsubscribe (List-Unsubscribe-Post, RFC 8058) POSTs to the same
 * address. No sign-in: the signed token says whose choice and which kind, and nothing more.
 */
export const unsubscribeRoutes: FastifyPluginAsync = async (app) => {
  const deliveries = app.deliveries;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const tokenOf = (query: unknown, body: unknown): string => {
    for (const from of [query, body]) {
      const token = (from as Record<string, unknown> | undefined)?.token;
      if (typeof token === 'string') return token;
    }
    return '';
  };

  app.get('/', async (request, reply) => {
    const token = tokenOf(request.query, undefined);
    const read = readUnsubscribeToken(await deliveries.linkKey(), token);
    if (!read) return page(reply, 400, 'Unsubscribe', badLink);
    return page(
      reply,
      200,
      'Stop these e-mails?',
      `<p>You will no longer get an e-mail when ${escapeHtml(kindName(read.kind))}. ` +
        `It stays in the portal's notifications, and you can turn it back on under Settings.</p>` +
        `<form method="post" action="/unsubscribe?token=${escapeHtml(encodeURIComponent(token))}">` +
        `<button type="submit">Unsubscribe</button></form>`,
    );
  });

  app.post('/', async (request, reply) => {
    const token = tokenOf(request.query, request.body);
    const read = readUnsubscribeToken(await deliveries.linkKey(), token);
    if (!read || !notificationKinds.includes(read.kind)) {
      return page(reply, 400, 'Unsubscribe', badLink);
    }
    await deliveries.store.setMailChoice(read.userId, read.kind, false);
    return page(
      reply,
      200,
      'Unsubscribed',
      `<p>You will no longer get an e-mail when ${escapeHtml(kindName(read.kind))}. Turn it back on in the portal under Settings.</p>`,
    );
  });
};
