// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordDateTime } from './requisition-table';

describe('a record’s last-updated time in the list', () => {
  afterEach(cleanup);

  it('is shown for people when the portal read it', () => {
    const { container } = render(<RecordDateTime value="2026-03-02T14:30:00Z" />);
    const time = container.querySelector('time');
    expect(time?.getAttribute('datetime')).toBe('2026-03-02T14:30:00Z');
    expect(time?.textContent).toMatch(/2026/);
    expect(time?.textContent).not.toBe('2026-03-02T14:30:00Z');
    // The reader's zone is named beside the time (UTC on a test machine set so, CET in Berlin…).
    expect(time?.textContent).toMatch(/\d{2}:\d{2}( [AP]M)? \S+$/);
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('is shown as the VMS wrote it, with a warning, when the profile could not read it', () => {
    // A day-first value under a month-first profile: a browser's Date would read 1 December.
    const { container } = render(<RecordDateTime value="12/01/2026 09:00:00" />);
    expect(screen.getByText('12/01/2026 09:00:00')).toBeInstanceOf(HTMLElement);
    expect(
      screen.getByRole('img', { name: /not a date and time the portal can read/i }),
    ).toBeInstanceOf(HTMLElement);
    expect(container.querySelector('time')).toBeNull();
  });
});
