import { expect, it } from 'vitest';
import { acceptedBatchId } from './accepted-batch';

const bytes = (text: string) => new TextEncoder().encode(text);

it('reads the batch id of a 2xx answer, as text or bytes, other fields left alone', () => {
  expect(acceptedBatchId(202, '{"batchid":"rb_7f3","received":3}')).toBe('rb_7f3');
  expect(acceptedBatchId(200, bytes('{"received":1,"batchid":"cb_1"}'))).toBe('cb_1');
});

it('finds none in another status, an answer that is no such object, or an id out of bounds', () => {
  expect(acceptedBatchId(400, '{"batchid":"rb_7f3"}')).toBeNull();
  expect(acceptedBatchId(302, '{"batchid":"rb_7f3"}')).toBeNull();
  expect(acceptedBatchId(202, null)).toBeNull();
  expect(acceptedBatchId(202, 'accepted')).toBeNull();
  expect(acceptedBatchId(202, '["rb_7f3"]')).toBeNull();
  expect(acceptedBatchId(202, '{"batchid":7}')).toBeNull();
  expect(acceptedBatchId(202, '{"batchid":""}')).toBeNull();
  expect(acceptedBatchId(202, JSON.stringify({ batchid: 'r'.repeat(201) }))).toBeNull();
  expect(acceptedBatchId(202, JSON.stringify({ batchid: 'r'.repeat(200) }))).toHaveLength(200);
  // A huge answer is not parsed at all, whatever it holds.
  const padded = JSON.stringify({ batchid: 'rb_big', pad: 'x'.repeat(70_000) });
  expect(acceptedBatchId(202, padded)).toBeNull();
});
