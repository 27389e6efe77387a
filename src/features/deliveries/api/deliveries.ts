import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  createdWebhookSchema,
  deliveryLogSchema,
  webhookSchema,
  type newWebhookSchema,
} from '@/domain/deliveries';
import { requestData, requestJson } from '@/shared/api/http';

/*
 * Webhooks and the delivery log (decision 056), for admins: the webhooks (their secrets shown once,
 * when made), adding, removing and testing one, and every delivery by e-mail or webhook, failures
 * first.
 */

export const webhooksKey = ['webhooks'] as const;
export const deliveryLogKey = ['deliveries', 'log'] as const;

const webhookListSchema = z.object({ items: z.array(webhookSchema) });
const testResultSchema = z.object({
  delivered: z.boolean(),
  status: z.number().int().nullable(),
  reason: z.string().nullable(),
});

export function webhooksQueryOptions() {
  return queryOptions({
    queryKey: webhooksKey,
    queryFn: async ({ signal }) =>
      (
        await requestJson('/api/admin/webhooks', webhookListSchema, 'Loading the webhooks', {
          signal,
        })
      ).data.items,
  });
}

export function deliveryLogQueryOptions() {
  return queryOptions({
    queryKey: deliveryLogKey,
    queryFn: async ({ signal }) =>
      (
        await requestJson('/api/admin/deliveries', deliveryLogSchema, 'Loading the delivery log', {
          signal,
        })
      ).data.items,
    // Pending deliveries move on their own: the log is read again while it is open.
    refetchInterval: 15_000,
  });
}

export async function addWebhook(input: z.input<typeof newWebhookSchema>) {
  return requestData(
    '/api/admin/webhooks',
    createdWebhookSchema,
    `Adding the webhook "${input.name}"`,
    {
      method: 'POST',
      body: input,
    },
  );
}

export async function removeWebhook(id: number, name: string) {
  return requestData(`/api/admin/webhooks/${id}`, webhookSchema, `Removing the webhook "${name}"`, {
    method: 'DELETE',
  });
}

export async function testWebhook(id: number, name: string) {
  return requestData(
    `/api/admin/webhooks/${id}/test`,
    testResultSchema,
    `Sending a test to the webhook "${name}"`,
    { method: 'POST' },
  );
}
