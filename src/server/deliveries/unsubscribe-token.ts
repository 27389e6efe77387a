import { createHmac, timingSafeEqual } from 'node:crypto';
import { notificationKinds, type NotificationKind } from '@/domain/notifications';

/**
 * The token in an e-mail's unsubscribe link: whose choice it turns off and which kind, signed
 * with the portal's key (kept in the database, made once), so that following it needs no sign-in
 * and nobody can make one for another user. It does not expire: a link in an old message still
 * turns that kind off, which is all it can do.
 */
export function unsubscribeToken(key: string, userId: string, kind: NotificationKind): string {
  const subject = `${Buffer.from(userId).toString('base64url')}.${kind}`;
  return `${subject}.${mac(key, subject)}`;
}

/** The user and kind a token names, or null when it is not one this portal signed. */
export function readUnsubscribeToken(
  key: string,
  token: string,
): { userId: string; kind: NotificationKind } | null {
  const at = token.lastIndexOf('.');
  if (at < 0) return null;
  const subject = token.slice(0, at);
  const given = Buffer.from(token.slice(at + 1), 'base64url');
  const expected = Buffer.from(mac(key, subject), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const dot = subject.indexOf('.');
  const kind = notificationKinds.find((each) => each === subject.slice(dot + 1));
  if (dot < 0 || !kind) return null;
  return { userId: Buffer.from(subject.slice(0, dot), 'base64url').toString('utf8'), kind };
}

function mac(key: string, subject: string): string {
  return createHmac('sha256', key).update(`unsubscribe:${subject}`).digest('base64url');
}
