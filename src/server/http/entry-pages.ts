import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * A selection read oldest first a page at a time, for an export: the first page is read before
 * this returns, so a store that refuses the selection is still a clean error before anything is
 * sent; then each next page only once the one before was taken (written out), so a selection of
 * any size is streamed without being held in memory.
 */
export async function oldestFirstPages<Entry, Cursor>(
  read: (page: { order: 'oldest'; from: Cursor | null; limit: number }) => Promise<Entry[]>,
  cursorAfter: (last: Entry) => Cursor,
  pageSize: number,
): Promise<AsyncGenerator<Entry[]>> {
  const first = await read({ order: 'oldest', from: null, limit: pageSize });
  async function* pages(): AsyncGenerator<Entry[]> {
    let page = first;
    while (page.length > 0) {
      yield page;
      const last = page.at(-1);
      if (page.length < pageSize || last === undefined) return;
      page = await read({ order: 'oldest', from: cursorAfter(last), limit: pageSize });
    }
  }
  return pages();
}

/**
 * A page newest first from `from` (null: the newest), and the cursor of the page after it as
 * text (`at.id`), or null when it is the last: one entry more than asked is read, so whether
 * there is a next page is known without counting.
 */
export async function newestPage<Entry, Cursor extends { at: number; id: number }>(
  read: (page: { order: 'newest'; from: Cursor | null; limit: number }) => Promise<Entry[]>,
  cursorAfter: (last: Entry) => Cursor,
  from: Cursor | null,
  size: number,
): Promise<{ entries: Entry[]; next: string | null }> {
  const entries = await read({ order: 'newest', from, limit: size + 1 });
  const page = entries.slice(0, size);
  const last = page.at(-1);
  const next = entries.length > size && last ? cursorAfter(last) : null;
  return { entries: page, next: next ? `${next.at}.${next.id}` : null };
}

/** An export as a download, `<name>-<time>.<format>`, streamed a chunk at a time. */
export function sendDownload(
  reply: FastifyReply,
  file: { name: string; format: string; contentType: string },
  chunks: AsyncIterable<string>,
): FastifyReply {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.name}-${stamp}.${file.format}"`)
    .send(Readable.from(chunks));
}
