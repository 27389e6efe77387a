import fp from 'fastify-plugin';
import { batchLink, gaveUpTitle, notificationKeepDays, settledTitle } from '@/domain/notifications';
import type { PortalDatabase } from '@/server/store/database';
import { purgeRounds } from '@/server/store/purge-rounds';
import type { FinishedBatch } from '@/server/watch/finished-batch';
import { Notifier, type Notice } from './notifier';
import { createNotificationStore, type NotificationStore } from './store/notification-store';
import { createPostgresNotificationStore } from './store/postgres/notification-store';

declare module 'fastify' {
  interface FastifyInstance {
    /** The notifications in the app (the bell). */
    notificationStore: NotificationStore;
  }
}

export interface NotificationsOptions {
  now?: () => number;
}

const dayMs = 24 * 60 * 60 * 1000;

/** The notifications' store on the portal database, as this plugin and the tests open it. */
export function openNotificationStore(database: PortalDatabase): NotificationStore {
  return database.open('notifications', {
    sqlite: createNotificationStore,
    postgres: createPostgresNotificationStore,
  });
}

/** The notification a finished batch makes, for whoever sent it. */
export function batchNotification(batch: FinishedBatch): Notice {
  return {
    connection: batch.connection,
    userId: batch.sentBy?.userId ?? null,
    kind: batch.state === 'settled' ? 'batch.settled' : 'batch.gave_up',
    title:
      batch.state === 'settled'
        ? settledTitle(batch.operation, batch.batchId, batch.rows ?? [])
        : gaveUpTitle(batch.operation, batch.batchId, batch.giveUpHours),
    link: batchLink(batch.batchId),
    // Once per batch and connection, however often the watch tells of it.
    about: `batch:${batch.connection}:${batch.batchId}`,
    at: batch.at,
  };
}

/**
 * The notifications in the app: each batch the watch is done with becomes one notification for
 * whoever sent it, kept `notificationKeepDays` days. Registered before the watch, which it hears
 * through `finishedBatches`.
 */
export const notificationsPlugin = fp<NotificationsOptions>(
  async (app, { now = Date.now }) => {
    const store = openNotificationStore(app.database);
    app.decorate('notificationStore', store);
    const notifier = new Notifier((notification) => store.add(notification));
    app.decorate('notifier', notifier);
    app.decorate('finishedBatches', {
      async finished(batch: FinishedBatch) {
        await notifier.notify(batchNotification(batch));
      },
    });
    const rounds = purgeRounds({
      everyMs: 60 * 60 * 1000,
      log: app.log,
      failure: 'notifications: old ones could not be removed',
      purge: () => store.prune(now() - notificationKeepDays * dayMs),
    });
    app.addHook('onClose', () => rounds.stop());
    await rounds.first;
  },
  { name: 'notifications', fastify: '5.x', dependencies: ['database'] },
);
