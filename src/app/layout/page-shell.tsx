import type { ComponentType } from 'react';
import {
  createContext,
  createElement,
  useContext,
  useLayoutEffect,
  useRef,
  useSyncExternalStore,
} from 'react';
import { CheckingSession } from '@/app/session-gate';
import type { Role } from '@/domain/auth';
import { roleRank } from '@/domain/auth';
import type { PageShell } from '@/domain/page-shell';
import { PageLoading } from '@/shared/ui/page-loading';
import { PageShellContext } from '@/shared/ui/page-shell-context';
import { AppFrame, MainNav, SandboxBanner } from './app-frame';
import { mayTakeOver, noteShellState, onMayTakeOver, restoreShellState } from './takeover';

/**
 * False while React hydrates the page the server sent (and on the server, which prerenders it);
 * then true, and at once in a page the app draws itself; but when a press (a click under way)
 * began before that, only once it has ended (takeover.ts). What a page shows before it is true is
 * what was prerendered: the same for every visitor, read from nothing in the browser.
 */
export function useMayTakeOver(): boolean {
  return useSyncExternalStore(onMayTakeOver, mayTakeOver, () => false);
}

const ShellRoleContext = createContext<Role>('admin');

/**
 * A page's shell when it is no more than its heading: its title, its heading and "Loading the
 * page…". A page for a role above the shell's shows only the last (the page itself says who may
 * use it, once it knows who is asking).
 */
export function PageShell({ heading, needs }: { heading: string; needs?: Role }) {
  const role = useContext(ShellRoleContext);
  if (needs && roleRank[role] < roleRank[needs]) return <PageLoading />;
  return (
    <div className="page">
      <title>{`${heading} · VMS submission portal`}</title>
      <h1>{heading}</h1>
      <PageLoading />
    </div>
  );
}

/**
 * The page the server sent before the app's code ran (decision 040), as the build prerendered it
 * and as the app draws it while it hydrates and until it can show its own (the session being
 * read, the browser's work being made ready): the app's frame without the org context (it depends
 * on settings and choices kept in this browser), the navigation the shell's role may use, and the
 * page's shell (`Shell`, exported by its route module beside the page). Its links work from the
 * start (plain links first, the router's once hydrated) and its fields take typing, which the app's
 * page is given with the focus as it takes over (takeover.ts); its buttons are disabled.
 */
export function ShellPage({
  shell,
  page,
  props,
}: {
  shell: PageShell;
  /** The route module's Shell. */
  page: ComponentType<Record<string, string>>;
  props: Record<string, string>;
}) {
  const pageRef = useRef<HTMLDivElement>(null);
  // Layout effects: the noting runs as React removes this page, before its elements go; the
  // putting back, when a shell replaces a shell (the session being read after hydration).
  useLayoutEffect(() => {
    const frame = pageRef.current?.closest('.app');
    if (frame) restoreShellState(frame);
    return () => {
      if (frame) noteShellState(frame);
    };
  }, []);
  if (shell.kind === 'session') return <CheckingSession />;
  return (
    <ShellRoleContext.Provider value={shell.role}>
      <AppFrame
        banners={shell.sandbox ? <SandboxBanner /> : null}
        orgBar={<div className="org-bar org-bar--pending" aria-hidden="true" />}
        nav={<MainNav may={(role) => roleRank[shell.role] >= roleRank[role]} />}
      >
        {/* No Suspense boundary of its own: React would leave the page's part as the server
            sent it, unhydrated, and the app replaces it at once. The route's module is loaded
            before the app hydrates (loadFirstPage). */}
        <div className="page-shell" ref={pageRef}>
          <PageShellContext.Provider value>{createElement(page, props)}</PageShellContext.Provider>
        </div>
      </AppFrame>
    </ShellRoleContext.Provider>
  );
}
