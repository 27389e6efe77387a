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
