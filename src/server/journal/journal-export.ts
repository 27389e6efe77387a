import type { JournalEntry, JournalExportFormat, JournalFilter } from '@/domain/journal';
import { oldestFirstPages } from '@/server/http/entry-pages';
import { harCreator, harEntry } from './har';
import { cursorAfter, type JournalReader } from './store/journal-store';

/** Entries read per page while exporting: enough to keep the stream busy, a few MB at most. */
const exportPage = 100;

/**
 * The export of a selection, the first started first (HAR's preferred order), as text chunks: a page of
 * entries is read, written out, and only then the next one read, so a selection of any size is
 * streamed without being held in memory. The first page is read before anything is sent (the
 * caller awaits it), so a search the store refuses is still a clean 400. Each entry is written as
 * `shown` gives it: with its personal values masked, unless they were revealed (decision 058).
 */
export async function exportChunks(
  reader: JournalReader,
  filter: JournalFilter,
  format: JournalExportFormat,
  portalOrigin: string,
  shown: (entry: JournalEntry) => JournalEntry,
): Promise<AsyncGenerator<string>> {
  const pages = await oldestFirstPages(
    (page) => reader.entries(filter, page),
    cursorAfter,
    exportPage,
  );

  async function* har(): AsyncGenerator<string> {
    yield `{"log":{"version":"1.2","creator":${JSON.stringify(harCreator)},"entries":[`;
    let separator = '';
    for await (const page of pages) {
      yield page
        .map((entry) => {
          const text = `${separator}\n${JSON.stringify(harEntry(shown(entry), portalOrigin))}`;
          separator = ',';
          return text;
        })
        .join('');
    }
    yield '\n]}}\n';
  }

  async function* jsonLines(): AsyncGenerator<string> {
    for await (const page of pages) {
      yield page.map((entry) => `${JSON.stringify(shown(entry))}\n`).join('');
    }
  }

  return format === 'har' ? har() : jsonLines();
}
