import type { FormEvent, ReactNode } from 'react';
import { useState } from 'react';
import { errorMessage } from '@/shared/api/http';

/** A page shown before the portal opens (sign in, set a password): `title` names it in the tab. */
export function BootPage({
  title,
  heading,
  children,
}: {
  title: string;
  heading: string;
  children: ReactNode;
}) {
  return (
    <main id="main" className="boot sign-in">
      <title>{`${title} · VMS submission portal`}</title>
      <h1>{heading}</h1>
      {children}
    </main>
  );
}

/**
 * Such a page's form, sent one at a time: `busy` while it is, and `problem` to show when it
 * failed, in the words `describe` gives the error. `check` may refuse the form first, with the
 * problem, before anything is sent.
 */
export function useBootForm({
  send,
  check,
  describe = errorMessage,
  firstProblem = null,
}: {
  send(data: FormData): Promise<void>;
  check?(data: FormData): string | null;
  describe?(error: unknown): string;
  /** What the page says before anything is sent (a failed single sign-on). */
  firstProblem?: string | null | (() => string | null);
}) {
  const [problem, setProblem] = useState<string | null>(firstProblem);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const refused = check?.(data) ?? null;
    if (refused !== null) {
      setProblem(refused);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await send(data);
    } catch (error) {
      setProblem(describe(error));
    } finally {
      setBusy(false);
    }
  };
  return { problem, busy, onSubmit };
}
