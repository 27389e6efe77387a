import type { SessionUser } from '@/domain/auth';
import { errorMessage } from '@/shared/api/http';
import { leaveSignedOutNote } from '@/shared/session/local-ownership';
import { clearUserWork } from '@/shared/session/local-work';
import { endSession, startSigningOut } from '@/shared/session/session';
import { freezePortalStorage } from '@/shared/storage/local-store';
import { syncCollection } from '@/shared/sync/user-sync';
import { userDataSync } from './user-data';

/** Saves everything the server keeps for the user; null when all of it is there, else why not. */
async function saveAll(user: SessionUser): Promise<string | null> {
  try {
    let conflicts = 0;
    for (const adapter of userDataSync)
      conflicts += (await syncCollection(user.id, adapter)).length;
    return conflicts === 0
      ? null
      : 'some of it was also changed on another device, and you have not chosen which version to keep';
  } catch (error) {
    return errorMessage(error);
  }
}

const othersEnded = (others: number) =>
  others === 0
    ? 'No other browser or device was signed in.'
    : others === 1
      ? 'You were also signed out on 1 other browser or device.'
      : `You were also signed out on ${others} other browsers or devices.`;

/**
 * Signing out on a browser that may be shared: the app makes way at once for a page with
 * nothing of the user's on it; their work is saved on the server and only then cleared from
 * the browser, so the next person sees none of it and the user finds it again when they sign in.
 * Work that could not be saved stays, set aside for them: the next person's sign-in puts it out
 * of sight, and theirs brings it back. The page then starts afresh at the sign-in form, with a
 * note of what happened.
 */
export async function signOutHere(user: SessionUser, everywhere = false): Promise<void> {
  startSigningOut();
  // The pages close first: a form saves its last keystrokes as it goes.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const unsaved = await saveAll(user);
  const notes: string[] = [];
  let ended = false;
  try {
    const others = await endSession(everywhere);
    ended = true;
    notes.push(everywhere ? `You have signed out. ${othersEnded(others)}` : 'You have signed out.');
  } catch (error) {
    notes.push(
      `The portal could not sign you out just now (${errorMessage(error)}). If it still shows you signed in, sign out again.`,
    );
  }
  if (ended && unsaved === null) {
    try {
      await clearUserWork(user.id);
      notes.push(
        'Your drafts and batches are saved on the server and were removed from this browser; you will find them when you sign in again.',
      );
    } catch (error) {
      // Still tagged as theirs, so the next person's sign-in sets it aside all the same.
      notes.push(
        `Your drafts and batches are saved on the server, but this browser would not let the portal remove its copy (${errorMessage(error)}). It stays out of sight of anyone else who signs in here.`,
      );
    }
  } else if (ended) {
    notes.push(
      `Your latest work could not all be saved on the server (${unsaved}). It stays in this browser, out of sight of anyone else who signs in here, and comes back when you sign in here again.`,
    );
  }
  leaveSignedOutNote(notes.join(' '));
  freezePortalStorage();
  location.replace('/');
}
