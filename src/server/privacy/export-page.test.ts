import { describe, expect, it } from 'vitest';
import { subjectExportPage } from './export-page';

/* The readable export shows what a candidate or a VMS wrote as text, never as markup. */

describe('subjectExportPage', () => {
  it('escapes the person, the store names and the records it shows', () => {
    const page = subjectExportPage({
      subject: { email: 'o.b@example.net', name: 'Odalys <b>Brightwater</b>' },
      exportedAt: '2026-11-29T12:00:00.000Z',
      counts: { drafts: 1 },
      records: [
        {
          store: 'drafts',
          record: 'draft "7"',
          at: '2026-11-28T09:00:00.000Z',
          items: [{ notes: '<script>alert(1)</script> & co' }],
          mentions: 2,
        },
      ],
    });
    expect(page).toContain(
      '<title>Personal data held about Odalys &lt;b&gt;Brightwater&lt;/b&gt; (o.b@example.net)</title>',
    );
    expect(page).toContain('<h2>drafts: draft &quot;7&quot;</h2>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; co');
    expect(page).not.toContain('<script>');
    expect(page).toContain('mentioned 2 time(s) in its text');
  });
});
