import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { mailMessage } from './mail-message';
import { parseMailSettings, type MailSettings } from './mail-settings';
import { Mailer } from './mailer';

/** A real SMTP server on loopback (the smtp-server package), keeping what it is sent. */
async function startSmtp(options: Partial<SMTPServerOptions> = {}) {
  const received: { from: string; to: string[]; mail: ParsedMail }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      void simpleParser(stream).then((mail) => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map(({ address }) => address),
          mail,
        });
        callback();
      }, callback);
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { server, port, received };
}

const servers: SMTPServer[] = [];
const mailers: Mailer[] = [];
afterEach(async () => {
  for (const mailer of mailers.splice(0)) mailer.close();
  await Promise.all(
    servers
      .splice(0)
      .map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
});

function settings(env: Parameters<typeof parseMailSettings>[0]): MailSettings {
  const parsed = parseMailSettings(env);
  if (parsed === null || 'problem' in parsed) throw new Error(JSON.stringify(parsed));
  return parsed;
}

function mailerFor(env: Parameters<typeof parseMailSettings>[0]): Mailer {
  const mailer = new Mailer(settings(env), 2_000);
  mailers.push(mailer);
  return mailer;
}

const content = {
  to: 'recruiter@example.com',
  subject: 'Batch rb_7f3 settled: 48 Success, 2 Error',
  lines: [
    'Batch rb_7f3 (50 requisitions, client 1001) settled at the VMS.',
    '48 Success, 2 Error.',
  ],
  link: {
    label: 'See the results',
    url: 'https://portal.example.com/submissions?batch=rb_7f3&a=1',
  },
  unsubscribeUrl:
    'https://portal.example.com/settings/notifications/unsubscribe?kind=batch.settled&token=t0k',
};

describe('sending through a real SMTP server', () => {
  it('delivers one message in text and HTML, with the link, signed in as the URL says', async () => {
    const logins: { username: string; password: string }[] = [];
    const smtp = await startSmtp({
      authOptional: false,
      onAuth(auth, _session, callback) {
        logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
        callback(null, { user: auth.username });
      },
    });
    servers.push(smtp.server);
    const mailer = mailerFor({
      SMTP_URL: `smtp://portal%40example.com@127.0.0.1:${smtp.port}`,
      SMTP_PASSWORD: 'p@ss word',
      MAIL_FROM: 'VMS portal <portal@example.com>',
    });

    const result = await mailer.send(mailMessage(content));

    expect(result.sent).toBe(true);
    expect(logins).toEqual([{ username: 'portal@example.com', password: 'p@ss word' }]);
    expect(smtp.received).toHaveLength(1);
    const [got] = smtp.received;
    expect(got?.from).toBe('portal@example.com');
    expect(got?.to).toEqual(['recruiter@example.com']);
    expect(got?.mail.subject).toBe('Batch rb_7f3 settled: 48 Success, 2 Error');
    expect(got?.mail.text).toContain('48 Success, 2 Error.');
    expect(got?.mail.text).toContain(
      'See the results: https://portal.example.com/submissions?batch=rb_7f3&a=1',
    );
    // The HTML's link is the same address, its & written as HTML writes it.
    expect(got?.mail.html).toContain(
      '<a href="https://portal.example.com/submissions?batch=rb_7f3&amp;a=1">See the results</a>',
    );
    expect(
      got?.mail.headerLines
        .find(({ key }) => key === 'list-unsubscribe')
        ?.line.replace(/\r?\n\s+/g, ' '),
    ).toBe(`List-Unsubscribe: <${content.unsubscribeUrl}>`);
  });

  it('escapes what it is given in the HTML part', async () => {
    const smtp = await startSmtp();
    servers.push(smtp.server);
    const mailer = mailerFor({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'portal@example.com',
    });
    await mailer.send(
      mailMessage({ ...content, lines: ['Suite "<b>UAT</b> & co" on UAT: 2 newly failing'] }),
    );
    expect(smtp.received[0]?.mail.html).toContain(
      'Suite &quot;&lt;b&gt;UAT&lt;/b&gt; &amp; co&quot; on UAT',
    );
  });

  it('reports a refusal of the message as permanent or not, as the server says, and throws nothing', async () => {
    const smtp = await startSmtp({
      onRcptTo(address, _session, callback) {
        const refusal = new Error(
          address.address.startsWith('full') ? 'Mailbox full, try later' : 'No such user',
        );
        Object.assign(refusal, { responseCode: address.address.startsWith('full') ? 452 : 550 });
        callback(refusal);
      },
    });
    servers.push(smtp.server);
    const mailer = mailerFor({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'portal@example.com',
    });

    const gone = await mailer.send(mailMessage({ ...content, to: 'gone@example.com' }));
    const full = await mailer.send(mailMessage({ ...content, to: 'full@example.com' }));

    expect(gone).toMatchObject({ sent: false, permanent: true });
    expect(gone.sent ? '' : gone.reason).toMatch(
      /^The SMTP server 127\.0\.0\.1:\d+ refused the message: ".*No such user"\.$/,
    );
    expect(full).toMatchObject({ sent: false, permanent: false });
    expect(smtp.received).toHaveLength(0);
  });

  it('reports a server that is down, and a wrong password, without the password', async () => {
    const smtp = await startSmtp({
      authOptional: false,
      onAuth(_auth, _session, callback) {
        callback(new Error('Invalid username or password'));
      },
    });
    servers.push(smtp.server);
    const wrong = await mailerFor({
      SMTP_URL: `smtp://portal:hunter2@127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'portal@example.com',
    }).send(mailMessage(content));
    expect(wrong).toMatchObject({ sent: false, permanent: false });
    expect(wrong.sent ? '' : wrong.reason).toContain(
      'refused the user name or password (SMTP_URL, SMTP_PASSWORD)',
    );
    expect(JSON.stringify(wrong)).not.toContain('hunter2');

    const closed = await startSmtp();
    await new Promise<void>((resolve) => closed.server.close(() => resolve()));
    const down = await mailerFor({
      SMTP_URL: `smtp://127.0.0.1:${closed.port}`,
      MAIL_FROM: 'portal@example.com',
    }).send(mailMessage(content));
    expect(down).toMatchObject({ sent: false, permanent: false });
    expect(down.sent ? '' : down.reason).toBe(
      `The SMTP server 127.0.0.1:${closed.port} could not be reached (ECONNREFUSED).`,
    );
  });
});

describe('the e-mail settings', () => {
  it('reads smtp and smtps URLs with their default ports, and the password from SMTP_PASSWORD', () => {
    expect(
      settings({
        SMTP_URL: 'smtps://portal@mail.example.com',
        SMTP_PASSWORD: 's3cret',
        MAIL_FROM: 'p@example.com',
      }),
    ).toEqual({
      host: 'mail.example.com',
      port: 465,
      secure: true,
      auth: { user: 'portal', pass: 's3cret' },
      from: 'p@example.com',
      shown: 'smtps://portal@mail.example.com',
    });
    expect(
      settings({ SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'p@example.com' }),
    ).toMatchObject({ port: 587, secure: false, auth: null });
    expect(
      settings({ SMTP_URL: 'smtp://u:p@mail.example.com:2525', MAIL_FROM: 'p@example.com' }),
    ).toMatchObject({
      port: 2525,
      auth: { user: 'u', pass: 'p' },
      shown: 'smtp://u:***@mail.example.com:2525',
    });
  });

  it('is off without SMTP_URL', () => {
    expect(parseMailSettings({})).toBeNull();
  });

  it.each([
    [{ SMTP_URL: 'smtp://', MAIL_FROM: 'p@example.com' }, 'SMTP_URL (smtp://) has no host'],
    [{ SMTP_URL: 'smtps://user:topsecret@/', MAIL_FROM: 'p@example.com' }, 'SMTP_URL'],
    [
      { SMTP_URL: 'https://mail.example.com', MAIL_FROM: 'p@example.com' },
      'must start with smtp:// or smtps://',
    ],
    [{ SMTP_URL: 'mail.example.com', MAIL_FROM: 'p@example.com' }, 'SMTP_URL is not a URL'],
    [
      { SMTP_URL: 'smtp://:pw@mail.example.com', MAIL_FROM: 'p@example.com' },
      'has a password but no user name',
    ],
    [{ SMTP_URL: 'smtp://mail.example.com' }, 'MAIL_FROM is not set'],
    [
      { SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'the portal' },
      'MAIL_FROM ("the portal") is not one e-mail address',
    ],
    [
      { SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'a@example.com, b@example.com' },
      'is not one e-mail address',
    ],
    [{ MAIL_FROM: 'p@example.com' }, 'SMTP_URL is not'],
  ])('refuses %j: %s', (env, message) => {
    const parsed = parseMailSettings(env);
    const problem = parsed !== null && 'problem' in parsed ? parsed.problem : '';
    expect(problem).toContain(message);
    expect(problem).not.toContain('topsecret');
  });
});
