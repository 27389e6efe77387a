// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { PortalNotification } from '@/domain/notifications';
import { BellView, type BellViewProps } from './notification-bell';

afterEach(cleanup);

const settled: PortalNotification = {
  id: 7,
  kind: 'batch.settled',
  title: 'Batch rb_7f3 settled: 48 Success, 2 Error',
  link: '/submissions?batch=rb_7f3',
  createdAt: '2026-11-29T10:15:00.000Z',
  readAt: null,
};
const gaveUp: PortalNotification = {
  id: 5,
  kind: 'batch.gave_up',
  title: 'Batch rb_2aa: still pending at the VMS after 72 h',
  link: '/submissions?batch=rb_2aa',
  createdAt: '2026-11-26T09:00:00.000Z',
  readAt: '2026-11-27T08:00:00.000Z',
};

/** Where the app is: the page a followed link opened. */
function Address() {
  const location = useLocation();
  return <p data-testid="address">{`${location.pathname}${location.search}`}</p>;
}

function show(props: Partial<BellViewProps> = {}) {
  const followed: PortalNotification[] = [];
  const marked: string[] = [];
  render(
    <MemoryRouter initialEntries={['/requisitions']}>
      <BellView
        unread={0}
        items={[]}
        problem={null}
        onFollow={(item) => followed.push(item)}
        onMarkAllRead={() => marked.push('all')}
        {...props}
      />
      <Routes>
        <Route path="*" element={<Address />} />
      </Routes>
    </MemoryRouter>,
  );
  return { followed, marked };
}

describe('the bell', () => {
  it('with nothing unread says so, shows no count, and its panel says what will come', async () => {
    show();
    const bell = screen.getByRole('button', { name: 'Notifications, none unread' });
    expect(bell.getAttribute('aria-expanded')).toBe('false');
    expect(bell.textContent).toBe('');
    expect(screen.queryByRole('region', { name: 'Notifications' })).toBeNull();

    await userEvent.click(bell);
    expect(bell.getAttribute('aria-expanded')).toBe('true');
    const panel = screen.getByRole('region', { name: 'Notifications' });
    expect(
      within(panel).getByText(/^Nothing yet\. When a batch you sent has settled/),
    ).not.toBeNull();
    expect(within(panel).getByRole('button', { name: 'Mark all read' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('counts the unread in its name and badge, lists the newest with their time, and follows a link', async () => {
    const { followed } = show({ unread: 1, items: [settled, gaveUp] });
    const bell = screen.getByRole('button', { name: '1 unread notification' });
    expect(bell.textContent).toBe('1');

    await userEvent.click(bell);
    const panel = screen.getByRole('region', { name: 'Notifications' });
    const links = within(panel).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Unread: Batch rb_7f3 settled: 48 Success, 2 Error',
      'Batch rb_2aa: still pending at the VMS after 72 h',
    ]);
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/submissions?batch=rb_7f3',
      '/submissions?batch=rb_2aa',
    ]);
    expect(
      within(panel)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('time')?.getAttribute('datetime')),
    ).toEqual(['2026-11-29T10:15:00.000Z', '2026-11-26T09:00:00.000Z']);

    await userEvent.click(links[0] as HTMLElement);
    expect(followed.map((item) => item.id)).toEqual([7]);
    expect(screen.getByTestId('address').textContent).toBe('/submissions?batch=rb_7f3');
    expect(bell.getAttribute('aria-expanded')).toBe('false');
  });

  it('says "3 unread notifications", marks all read, and shows 99+ past 99', async () => {
    const { marked } = show({ unread: 3, items: [settled] });
    const bell = screen.getByRole('button', { name: '3 unread notifications' });
    await userEvent.click(bell);
    await userEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    expect(marked).toEqual(['all']);
    cleanup();

    show({ unread: 120, items: [settled] });
    expect(screen.getByRole('button', { name: '120 unread notifications' }).textContent).toBe(
      '99+',
    );
  });

  it('is used from the keyboard: Enter opens it, Escape closes it and gives the focus back', async () => {
    show({ unread: 1, items: [settled] });
    const bell = screen.getByRole('button', { name: '1 unread notification' });
    bell.focus();
    await userEvent.keyboard('{Enter}');
    expect(bell.getAttribute('aria-expanded')).toBe('true');
    await userEvent.tab();
    await userEvent.tab();
    expect(document.activeElement?.textContent).toBe(
      'Unread: Batch rb_7f3 settled: 48 Success, 2 Error',
    );
    await userEvent.keyboard('{Escape}');
    expect(bell.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(bell);
    expect(screen.queryByRole('region', { name: 'Notifications' })).toBeNull();
  });

  it('says why when the notifications could not be read, and reads them first', async () => {
    show({ unread: null });
    await userEvent.click(screen.getByRole('button', { name: 'Notifications, none unread' }));
    expect(screen.getByText('Reading your notifications…')).not.toBeNull();
    cleanup();

    show({
      unread: null,
      problem: 'Reading your notifications failed: the portal server could not be reached.',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Notifications, none unread' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Reading your notifications failed: the portal server could not be reached.',
    );
  });
});
