import addressparser from 'nodemailer/lib/addressparser';

/**
 * The portal's e-mail settings (decision 052): `SMTP_URL` (`smtp://` for STARTTLS, port 587 by
 * default, or `smtps://` for TLS from the start, port 465), with the user and password in it or the
 * password in `SMTP_PASSWORD` (kept out of a URL that may be printed), and `MAIL_FROM`, the sender.
 * Without SMTP_URL the portal sends no e-mail and says so where e-mail is chosen.
 */
export interface MailSettings {
  host: string;
  port: number;
  /** TLS from the first byte (smtps), else STARTTLS when the server offers it. */
  secure: boolean;
  auth: { user: string; pass: string } | null;
  /** The sender as typed, e.g. `VMS portal <portal@example.com>`. */
  from: string;
  /** SMTP_URL without its password, for messages and the admin page. */
  shown: string;
}

export interface MailEnv {
  SMTP_URL?: string | undefined;
  SMTP_PASSWORD?: string | undefined;
  MAIL_FROM?: string | undefined;
}

/** The settings, null when e-mail is off (no SMTP_URL), or what is wrong, naming the setting. */
export function parseMailSettings(env: MailEnv): MailSettings | null | { problem: string } {
  const raw = env.SMTP_URL?.trim() ?? '';
  const from = env.MAIL_FROM?.trim() ?? '';
  if (raw === '') {
    return from === '' && !env.SMTP_PASSWORD
      ? null
      : {
          problem:
            'MAIL_FROM or SMTP_PASSWORD is set but SMTP_URL is not: set SMTP_URL (e.g. smtps://portal@mail.example.com) to send e-mail, or remove them.',
        };
  }
  const example = 'write it as smtps://user@mail.example.com or smtp://mail.example.com:587';
  // As typed, with the password (between the user's colon and the @) starred.
  const shown = raw.replace(/^([a-z]+:\/\/[^:@/]*):[^@/]*@/i, '$1:***@');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: `SMTP_URL is not a URL; ${example}.` };
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    return { problem: `SMTP_URL (${shown}) must start with smtp:// or smtps://; ${example}.` };
  }
  if (url.hostname === '') {
    return { problem: `SMTP_URL (${shown}) has no host; ${example}.` };
  }
  const secure = url.protocol === 'smtps:';
  const user = decodeURIComponent(url.username);
  const pass = env.SMTP_PASSWORD ?? decodeURIComponent(url.password);
  if (user === '' && pass !== '') {
    return {
      problem: `SMTP_URL (${shown}) has a password but no user name; put the user before the host (smtps://user@mail.example.com).`,
    };
  }
  if (from === '') {
    return {
      problem:
        'MAIL_FROM is not set: the sender of the portal\'s e-mail, e.g. "VMS portal <portal@example.com>".',
    };
  }
  const [sender, ...more] = addressparser(from, { flatten: true });
  if (!sender?.address || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(sender.address) || more.length > 0) {
    return {
      problem: `MAIL_FROM ("${from}") is not one e-mail address; write it as "VMS portal <portal@example.com>".`,
    };
  }
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    secure,
    auth: user === '' ? null : { user, pass },
    from,
    shown,
  };
}
