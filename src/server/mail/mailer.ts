import { createTransport, type Transporter } from 'nodemailer';
import type { MailSettings } from './mail-settings';

/** One message, built without any candidate's data (mail-message.ts). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A List-Unsubscribe address for this kind of message, when there is one. */
  unsubscribe?: string;
}

export type MailResult =
  | { sent: true; messageId: string }
  | {
      sent: false;
      /** For the admins' page: what went wrong, in their words, never with the password. */
      reason: string;
      /** The server refused this message for good (a 5xx): retrying sends the same refusal. */
      permanent: boolean;
    };

/**
 * Sends the portal's e-mail through the SMTP server the settings name, with nodemailer. A failure
 * is returned, never thrown: the caller keeps the message and tries again later (decision 052).
 */
export class Mailer {
  private readonly transport: Transporter;

  constructor(
    private readonly settings: MailSettings,
    timeoutMs = 15_000,
  ) {
    this.transport = createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      ...(settings.auth ? { auth: settings.auth } : {}),
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
  }

  async send(message: MailMessage): Promise<MailResult> {
    try {
      const info = await this.transport.sendMail({
        from: this.settings.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(message.unsubscribe
          ? {
              list: { unsubscribe: message.unsubscribe },
              // One-click unsubscribe (RFC 8058): the mail client POSTs to the link itself, so
              // no scanner following links turns anything off.
              headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
            }
          : {}),
      });
      return { sent: true, messageId: String(info.messageId) };
    } catch (error) {
      return { sent: false, ...this.failure(error) };
    }
  }

  close(): void {
    this.transport.close();
  }

  private failure(error: unknown): { reason: string; permanent: boolean } {
    const details = (typeof error === 'object' && error !== null ? error : {}) as {
      code?: string;
      originalCode?: string;
      responseCode?: number;
      response?: string;
      permanent?: boolean;
    };
    const server = `the SMTP server ${this.settings.host}:${this.settings.port}`;
    if (details.code === 'EAUTH') {
      return {
        reason: `${server} refused the user name or password (SMTP_URL, SMTP_PASSWORD)${reply(details.response)}.`,
        permanent: false,
      };
    }
    if (details.responseCode !== undefined) {
      return {
        reason: `${capitalised(server)} refused the message${reply(details.response)}.`,
        permanent: details.permanent ?? false,
      };
    }
    const cause =
      details.originalCode ??
      details.code ??
      (error instanceof Error ? error.message : String(error));
    return { reason: `${capitalised(server)} could not be reached (${cause}).`, permanent: false };
  }
}

function reply(response: string | undefined): string {
  return response ? `: "${response.slice(0, 200)}"` : '';
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
