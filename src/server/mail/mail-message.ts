import type { MailMessage } from './mailer';

/**
 * What a notification e-mail says: a subject, a few lines of counts and ids, and a link to the page
 * that shows the rest. It holds no candidate's data by construction: the lines are written by the
 * notifications from counts, batch ids and suite names, and whoever reads the details does so in
 * the portal, signed in (decision 052).
 */
export interface MailContent {
  to: string;
  subject: string;
  lines: readonly string[];
  link: { label: string; url: string };
  /** Where this kind of e-mail is turned off with one click. */
  unsubscribeUrl?: string;
}

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe to put in HTML, between tags or in a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => escapes[character] ?? character);
}

/** The message in plain text and in HTML, saying the same. */
export function mailMessage(content: MailContent): MailMessage {
  const footer = content.unsubscribeUrl
    ? `You get this because it is on in your portal settings. Turn this kind off: ${content.unsubscribeUrl}`
    : 'You get this because it is on in your portal settings.';
  const text = [
    ...content.lines,
    '',
    `${content.link.label}: ${content.link.url}`,
    '',
    '--',
    footer,
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif">',
    ...content.lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(content.link.url)}">${escapeHtml(content.link.label)}</a></p>`,
    `<hr><p style="color:#555;font-size:12px">${
      content.unsubscribeUrl
        ? `You get this because it is on in your portal settings. <a href="${escapeHtml(content.unsubscribeUrl)}">Turn this kind off</a>.`
        : 'You get this because it is on in your portal settings.'
    }</p>`,
    '</body></html>',
  ].join('\n');
  return {
    to: content.to,
    subject: content.subject,
    text,
    html,
    ...(content.unsubscribeUrl ? { unsubscribe: content.unsubscribeUrl } : {}),
  };
}
