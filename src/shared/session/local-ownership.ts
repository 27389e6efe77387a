import { useEffect, useState } from 'react';
import { freezePortalStorage, storageKey } from '@/shared/storage/local-store';
import { signedOutPart } from '@/shared/storage/user-owned';
import { localOwner, ownerKey } from './owner-tag';

/*
 * The note signing out leaves for the sign-in page, and the hook that makes the work in this
 * browser the signed-in user's before their pages are drawn. The moves themselves (local-work.ts)
 * load only for a signed-in user: with sign-in off they never run.
 */
const noteKey = storageKey(signedOutPart);

/** A line for the sign-in page to show once, after the reload that signing out ends with. */
export function leaveSignedOutNote(text: string): void {
  try {
    sessionStorage.setItem(noteKey, text);
  } catch {
    // Without sessionStorage the sign-in page simply shows no note.
  }
}

let note: string | null | undefined;

/** The note, taken out of storage the first time this page asks (a reload does not repeat it). */
export function takeSignedOutNote(): string | null {
  if (note !== undefined) return note;
  try {
    note = sessionStorage.getItem(noteKey);
    sessionStorage.removeItem(noteKey);
  } catch {
    note = null;
  }
  return note;
}

/** The user whose work this page has in memory: once set, another user means a fresh page. */
let pageUser: string | null = null;
/** Ownership is taken one user at a time, however many components ask. */
let taking: Promise<void> = Promise.resolve();

function ensureOwnership(userId: string): Promise<void> {
  taking = taking
    .catch(() => undefined)
    .then(() =>
      localOwner() === userId
        ? undefined
        : import('./local-work').then((work) => work.takeOwnership(userId)),
    );
  return taking;
}

/**
 * Whether the signed-in user's pages may be drawn: 'ready' once the browser's work is theirs,
 * 'failed' when the browser would not let it be sorted out (then nothing of anyone's is shown).
 * A page that already showed one user's work reloads when another user is signed in (here, or in
 * another tab of this browser: the owner tag changes), so nothing the first left in memory
 * reaches the second.
 */
export function useLocalOwnership(userId: string | null): 'pending' | 'ready' | 'failed' {
  const [ready, setReady] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const switched = userId !== null && pageUser !== null && pageUser !== userId;

  useEffect(() => {
    if (userId === null) return;
    if (pageUser !== null && pageUser !== userId) {
      freezePortalStorage();
      location.reload();
      return;
    }
    let current = true;
    void ensureOwnership(userId).then(
      () => {
        pageUser = userId;
        if (current) setReady(userId);
      },
      () => {
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [userId]);

  useEffect(() => {
    const listener = (event: StorageEvent) => {
      if (event.key !== ownerKey && event.key !== null) return;
      if (pageUser === null || localOwner() === pageUser) return;
      freezePortalStorage();
      location.reload();
    };
    addEventListener('storage', listener);
    return () => removeEventListener('storage', listener);
  }, []);

  if (failed) return 'failed';
  return !switched && userId !== null && ready === userId ? 'ready' : 'pending';
}
