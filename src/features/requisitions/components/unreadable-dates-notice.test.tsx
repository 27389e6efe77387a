// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequisitionRecord } from '@/domain';
import { blankRequisitionWire } from '@/domain';
import type { SessionState } from '@/domain/auth';
import { unreadableDateCount } from '@/features/requisitions/model/list-view';
import { SessionProvider } from '@/shared/session/session';
import { RecordDateTime } from './requisition-table';
import { UnreadableDatesNotice } from './unreadable-dates-notice';

function record(reqId: string, createdAt: string, updatedAt: string): RequisitionRecord {
  return {
    reqId,
    createdAt,
    updatedAt,
    fields: blankRequisitionWire() as RequisitionRecord['fields'],
  };
}

const read = '2026-03-02T14:30:00Z';
const dayFirst = '12/01/2026 09:00:00';

function signedIn(role: 'recruiter' | 'qa' | 'admin'): SessionState {
  return {
    authRequired: true,
    user: {
      id: 'u1',
      email: `${role}@example.com`,
      role,
      clientOrgIds: [1001],
      connections: ['default'],
    },
    csrfToken: 'token',
    sso: null,
  };
}

function show(count: number, session: SessionState | null = null) {
  return render(
    <SessionProvider state={session}>
      <MemoryRouter>
        <UnreadableDatesNotice count={count} />
      </MemoryRouter>
    </SessionProvider>,
  );
}

const notice = () =>
  screen.queryByRole('region', { name: 'Some dates are shown as the VMS wrote them' });

describe('how many requisitions of the list have a date the profile could not read', () => {
  it('counts each requisition once, by its created or its updated time, and never an absent one', () => {
    const records = [
      record('40001', read, read),
      record('40002', dayFirst, read),
      record('40003', read, '27/05/2025 10:15:00'),
      record('40004', dayFirst, '27/05/2025 10:15:00'),
      record('40005', '', ''),
      record('40006', '', read),
      record('40007', '2026-02-30T10:00:00Z', read),
    ];
    // 40002, 40003 and 40004 (once, though both its times are unread), and 40007: no 30 February.
    expect(unreadableDateCount(records)).toBe(4);
    expect(unreadableDateCount([])).toBe(0);
  });

  it('counts exactly the times the table marks with ⚠', () => {
    const values = [read, dayFirst, '', '2026-02-30T10:00:00Z', '1767225600', '2026-03-02 14:30'];
    for (const value of values) {
      const { container, unmount } = render(<RecordDateTime value={value} />);
      const marked = container.querySelector('[role="img"]') !== null;
      expect({ value, counted: unreadableDateCount([record('1', value, '')]) === 1 }).toEqual({
        value,
        counted: marked,
      });
      unmount();
    }
  });
});

describe('the list’s notice of dates it could not read', () => {
  afterEach(cleanup);

  it('is not shown when every date was read', () => {
    const { container } = show(0);
    expect(notice()).toBeNull();
    expect(container.textContent).toBe('');
  });

  it('names one requisition in the singular', () => {
    show(1);
    expect(notice()?.textContent).toContain(
      "The dates of 1 requisition cannot be read with this connection's profile, so they are shown as the VMS wrote them (⚠).",
    );
  });

  it('counts many, grouped, and links an administrator to the connection’s check', () => {
    show(1200, signedIn('admin'));
    const shown = notice();
    expect(shown?.textContent).toContain(
      "The dates of 1,200 requisitions cannot be read with this connection's profile",
    );
    expect(shown?.textContent).toContain('(dates.dateTimes)');
    expect(screen.getByRole('link', { name: 'Connections page' }).getAttribute('href')).toBe(
      '/connections',
    );
  });

  it('links to the Connections page when sign-in is off (one person, who may open every page)', () => {
    show(137);
    expect(notice()?.textContent).toContain('The dates of 137 requisitions cannot be read');
    expect(screen.getByRole('link', { name: 'Connections page' }).getAttribute('href')).toBe(
      '/connections',
    );
  });

  it('tells a recruiter or QA whom to ask, with no link to a page that is not theirs', () => {
    for (const role of ['recruiter', 'qa'] as const) {
      const { unmount } = show(137, signedIn(role));
      expect(notice()?.textContent).toContain('The dates of 137 requisitions cannot be read');
      expect(notice()?.textContent).toContain(
        "Ask an administrator to run the connection's check on the Connections page: it names the setting of the profile to change (dates.dateTimes).",
      );
      expect(screen.queryByRole('link')).toBeNull();
      unmount();
    }
  });
});
