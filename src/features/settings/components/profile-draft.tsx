import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { JsonBody } from '@/core/batch/components/json-preview';
import type { ConnectionSettings } from '@/domain/portal-config';
import { signatureExampleSchema, type ProfileDraft } from '@/domain/profile-draft';
import { draftConnectionProfile } from '@/features/settings/api/connections';
import { errorMessage } from '@/shared/api/http';
import { CheckboxLabel } from '@/shared/ui/checkbox';

/** The signed example as typed: nothing, or JSON the example's schema takes (else what is wrong). */
function readExample(text: string) {
  if (text.trim() === '') return { example: undefined };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'The signed example is not JSON: paste the example file as it is.' };
  }
  const parsed = signatureExampleSchema.safeParse(json);
  return parsed.success
    ? { example: parsed.data }
    : {
        problem: `The signed example: ${parsed.error.issues[0]?.message ?? 'not an example'}.`,
      };
}

function DraftOutcome({ outcome, connection }: { outcome: ProfileDraft; connection: string }) {
  if (!outcome.drafted) {
    return (
      <div className="notice notice--error">
        <p className="user-text">No profile was drafted: {outcome.problem}.</p>
        <details>
          <summary>What was tried ({outcome.tried.length})</summary>
          <ul>
            {outcome.tried.map((line, at) => (
              <li key={at} className="user-text">
                {line}
              </li>
            ))}
          </ul>
        </details>
      </div>
    );
  }
  const lines = Object.values(outcome.profile.$evidence);
  const count = (word: string) => lines.filter((line) => line.startsWith(`${word}:`)).length;
  return (
    <>
      <p className="notice notice--success">
        Drafted: {count('proved')} keys proved, {count('guess')} guessed, {count('undecided')} left
        to the preset. Each key&apos;s proof is under &quot;$evidence&quot;; the portal ignores it
        when it reads the profile. Fill in what is undecided from the VMS&apos;s API reference
        before sending.
      </p>
      <JsonBody
        value={outcome.profile}
        label={`Profile drafted for ${connection}`}
        fileName={`profile-${connection}.json`}
      />
    </>
  );
}

/**
 * An admin's draft of a connection's profile from the VMS's own answers (safe GETs only, unless
 * the admin ticks the test send: then one test requisition and a test candidate to it, which the
 * server refuses on a production connection); the server makes the calls, so the key and secret
 * stay there.
 */
export function ProfileDraftAction({ connection }: { connection: ConnectionSettings }) {
  const id = useId();
  const [exampleText, setExampleText] = useState('');
  const [sendTest, setSendTest] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const draft = useMutation({
    mutationFn: (example: ReturnType<typeof readExample>['example']) =>
      draftConnectionProfile(connection.name, example, sendTest),
  });
  return (
    <div className="connection-draft">
      <details>
        <summary>A signed example, if the VMS signs in a way the portal does not know</summary>
        <label htmlFor={`${id}-example`}>
          Signed example (JSON: method, path, headers as sent, and body or timestamp when needed)
        </label>
        <textarea
          id={`${id}-example`}
          rows={6}
          value={exampleText}
          onChange={(event) => setExampleText(event.target.value)}
        />
      </details>
      <CheckboxLabel checked={sendTest} onChange={setSendTest}>
        Send one test requisition (non-production only)
      </CheckboxLabel>
      <button
        type="button"
        className="button button--secondary"
        disabled={draft.isPending}
        onClick={() => {
          const read = readExample(exampleText);
          setProblem(read.problem ?? null);
          if (read.problem === undefined) draft.mutate(read.example);
        }}
      >
        Draft a profile from {connection.label}
      </button>
      <div aria-live="polite">
        {draft.isPending ? <p>Drafting a profile from {connection.label}…</p> : null}
        {problem !== null ? (
          <p role="alert" className="notice notice--error">
            {problem}
          </p>
        ) : null}
        {draft.isError ? (
          <p role="alert" className="notice notice--error">
            {errorMessage(draft.error)}
          </p>
        ) : null}
      </div>
      {draft.data && !draft.isPending ? (
        <DraftOutcome outcome={draft.data} connection={connection.name} />
      ) : null}
    </div>
  );
}
