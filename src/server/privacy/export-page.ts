import type { SubjectExport } from '@/domain/personal-subject';
import { escapeHtml } from '@/server/mail/mail-message';

/**
 * The subject-access export as a page a person can read: who it is about, how many records of
 * each store, then each record with where it came from and what it holds. Self-contained (no
 * script, no outside style), so it opens from a file and prints as it shows; whatever a candidate
 * or a VMS wrote is escaped, so it is shown, never run.
 */
export function subjectExportPage(held: SubjectExport): string {
  const who = held.subject.name
    ? `${held.subject.name} (${held.subject.email})`
    : held.subject.email;
  const counts = Object.entries(held.counts)
    .map(([store, n]) => `<tr><td>${escapeHtml(store)}</td><td>${n}</td></tr>`)
    .join('');
  const records = held.records
    .map(
      (record) =>
        `<section><h2>${escapeHtml(record.store)}: ${escapeHtml(record.record)}</h2>` +
        `<p>Kept since ${escapeHtml(record.at)}` +
        (record.mentions > 0 ? `; mentioned ${record.mentions} time(s) in its text` : '') +
        `</p><pre>${escapeHtml(JSON.stringify(record.items, null, 2))}</pre></section>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Personal data held about ${escapeHtml(who)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#f4f4f4;padding:.5rem}td,th{padding:.2rem .8rem;text-align:left}</style>
</head><body>
<h1>Personal data held about ${escapeHtml(who)}</h1>
<p>Exported ${escapeHtml(held.exportedAt)}. ${held.records.length} record(s).</p>
<table><thead><tr><th>Store</th><th>Records</th></tr></thead><tbody>${counts}</tbody></table>
${records}
</body></html>
`;
}
