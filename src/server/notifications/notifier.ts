import type { NewNotification } from './store/notification-store';

/**
 * What the portal tells people: a notification for one user (or the portal's own, with sign-in
 * off), and the connection it concerns, which is how a webhook for one connection picks its own.
 */
export interface Notice extends NewNotification {
  connection: string | null;
}

/**
 * A way a notice reaches people besides the bell (e-mail, webhooks). `take` is called for every
 * telling of a notice, a repeated one included, and must take the same `about` once: a process
 * that died after the bell's notification was written and before a channel took it tells again,
 * and only then does the channel get it. A `take` that throws fails the telling, which its teller
 * repeats (the watch checks the batch again).
 */
export interface NoticeChannel {
  readonly name: string;
  take(notice: Notice): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Tells people: the bell, then every channel added. */
    notifier: Notifier;
  }
}

/** The bell and the channels, one telling at a time per notice. */
export class Notifier {
  private readonly channels: NoticeChannel[] = [];

  constructor(private readonly bell: (notification: NewNotification) => Promise<boolean>) {}

  /** Channels are added by their plugins, after the notifications' and before any telling. */
  addChannel(channel: NoticeChannel): void {
    this.channels.push(channel);
  }

  /** Tells of a notice; true when the bell's notification is new. */
  async notify(notice: Notice): Promise<boolean> {
    const { connection: _connection, ...notification } = notice;
    const added = await this.bell(notification);
    for (const channel of this.channels) await channel.take(notice);
    return added;
  }
}
