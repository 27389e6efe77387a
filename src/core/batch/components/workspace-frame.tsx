import type { ReactNode, RefObject } from 'react';
import { Suspense, useCallback, useRef, useState } from 'react';
import { useLatestSent } from '@/core/batch/hooks/use-latest-sent';
import type { WorkspaceSession } from '@/core/batch/hooks/use-workspace-session';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import { useOrgScope } from '@/shared/config/org-context';
import { BatchTray } from './batch-tray';
import { LatestResults } from './latest-results';
import { ReplaceFormDialog } from './replace-form-dialog';

/**
 * A workspace page of any payload kind: its heading and form on the left, the kind's batch tray
 * beside it, and the question asked before loaded work replaces unsaved changes.
 */
export function WorkspaceFrame<V>({
  kind,
  heading,
  session,
  children,
}: {
  kind: BatchKind;
  heading: string;
  session: Pick<WorkspaceSession<V>, 'start' | 'ask' | 'replaceWithIncoming' | 'keepCurrent'>;
  children: ReactNode;
}) {
  const origin = session.start?.origin;
  const latest = useLatestSent(kind.id, useOrgScope().clientOrgId);
  return (
    <WorkspaceLayout
      heading={heading}
      tray={
        // The form does not wait for the batch's items (read from the browser's database).
        <Suspense fallback={<TrayLoading />}>
          <BatchTray
            kind={kind}
            editingItemId={origin?.type === 'tray-item' ? origin.itemId : undefined}
          />
        </Suspense>
      }
      after={
        <ReplaceFormDialog
          label={session.ask?.label ?? null}
          onReplace={session.replaceWithIncoming}
          onKeep={session.keepCurrent}
        />
      }
    >
      {latest ? <LatestResults kind={kind} submission={latest} /> : null}
      {children}
    </WorkspaceLayout>
  );
}

/**
 * A workspace page's layout: the heading and what follows it, and the tray beside. The page's
 * prerendered shell draws it too, with the tray still loading.
 */
export function WorkspaceLayout({
  heading,
  tray = <TrayLoading />,
  after,
  children,
}: {
  heading: string;
  tray?: ReactNode;
  /** After the tray, e.g. a dialog. */
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="workspace">
      <title>{`${heading} · VMS submission portal`}</title>
      <div className="workspace__main">
        <h1>{heading}</h1>
        {children}
      </div>
      <aside className="workspace__tray" aria-label="Batch">
        {tray}
      </aside>
      {after}
    </div>
  );
}

function TrayLoading() {
  return (
    <section className="tray" aria-busy="true">
      <h2 className="tray__title">Batch to send</h2>
      <p className="tray__count">Loading the batch…</p>
    </section>
  );
}

/** "Added … to the batch": a live region that takes focus, so the user hears where they are. */
export function AddedNote({
  text,
  noteRef,
}: {
  text: string | null;
  noteRef: RefObject<HTMLDivElement | null>;
}) {
  return (
    <div ref={noteRef} tabIndex={-1} role="status" className="added-note">
      {text ? <p className="notice notice--success">{text}</p> : null}
    </div>
  );
}

/** The state of an AddedNote: `show` sets the text and moves focus to it once rendered. */
export function useAddedNote(initial: string | null = null) {
  const [text, setText] = useState<string | null>(initial);
  const noteRef = useRef<HTMLDivElement | null>(null);
  const show = useCallback((next: string) => {
    setText(next);
    setTimeout(() => noteRef.current?.focus(), 0);
  }, []);
  return { text, noteRef, show };
}
