import { useId, useState } from 'react';
import { signOutHere } from '@/core/batch/sync/sign-out';
import type { SessionUser } from '@/domain/auth';
import { ClientOrgSelect } from '@/shared/config/client-org-select';
import { useOrg } from '@/shared/config/org-context';
import { forgetRequisitionLists } from '@/shared/requisitions';
import { useSessionUser } from '@/shared/session/session';
import { clearIndexedLists } from '@/shared/storage/indexed-list-store';
import { clearPortalStorage, portalStorageKeys } from '@/shared/storage/local-store';
import { useLocalStore } from '@/shared/storage/local-store';
import { CheckboxField } from '@/shared/ui/checkbox';
import { ConfirmButton } from '@/shared/ui/confirm-dialog';
import { displaySettings, themes } from '@/shared/ui/display-settings';
import { EmailNotificationsSection } from './email-notifications-section';

/**
 * Signing out everywhere, for a user who left a session open on another computer: every session
 * of theirs ends, this one too (so this browser is cleared as on any sign-out), and the sign-in
 * page that follows says how many others there were.
 */
function AccountSection({ user }: { user: SessionUser }) {
  return (
    <section className="settings-section" aria-labelledby="settings-account">
      <h2 id="settings-account">Your account</h2>
      <p>
        Signed in as <strong>{user.email}</strong>. If you are still signed in on another computer
        or browser (a shared one, or one you cannot reach), sign out everywhere: every session of
        yours ends, this one too. Your work is saved on the server first.
      </p>
      <ConfirmButton
        label="Sign out everywhere"
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        cancelLabel="Stay signed in"
        onConfirm={() => void signOutHere(user, true)}
      >
        <p>
          You will be signed out on every browser and device, this one included, and will need to
          sign in again on each.
        </p>
      </ConfirmButton>
    </section>
  );
}

/** The page's heading (its prerendered shell shows it too). */
export const settingsHeading = 'Settings';

/**
 * What this portal is set up for (from the server's settings; changed there, not here), the
 * client org to work for, and clearing what this browser keeps.
 */
export function SettingsPage() {
  const { config, vendorOrgId } = useOrg();
  const [cleared, setCleared] = useState(false);
  const [keyCount, setKeyCount] = useState(() => portalStorageKeys().length);
  const orgId = useId();
  const display = useLocalStore(displaySettings);
  const user = useSessionUser();

  return (
    <div className="page">
      <h1>{settingsHeading}</h1>

      <section className="settings-section" aria-labelledby="settings-org">
        <h2 id="settings-org">Organisation</h2>
        <div className="field">
          <label htmlFor={orgId} className="field__label">
            Client org to work for
          </label>
          <p className="field__hint" id={`${orgId}-hint`}>
            Each client org has its own batch and drafts. The list comes from the server
            (VMS_CLIENT_ORGS).
          </p>
          <ClientOrgSelect id={orgId} describedBy={`${orgId}-hint`} />
        </div>
        <dl className="facts">
          <div>
            <dt>Vendor org</dt>
            <dd>{vendorOrgId}</dd>
          </div>
        </dl>
      </section>

      {user ? <AccountSection user={user} /> : null}
      {user ? <EmailNotificationsSection /> : null}

      <section className="settings-section" aria-labelledby="settings-display">
        <h2 id="settings-display">Display</h2>
        <fieldset className="choice">
          <legend className="choice__legend">Colours</legend>
          <div className="choice__options">
            {themes.map((theme) => (
              <label key={theme.value} className="radio" htmlFor={`theme-${theme.value}`}>
                <input
                  type="radio"
                  id={`theme-${theme.value}`}
                  name="theme"
                  value={theme.value}
                  checked={display.theme === theme.value}
                  onChange={() => displaySettings.set({ ...display, theme: theme.value })}
                />
                <span>{theme.label}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <CheckboxField
          checked={display.wireNames}
          onChange={(wireNames) => displaySettings.set({ ...display, wireNames })}
        >
          Show each field’s wire name beside its label (titlerole, billrate…), for QA
        </CheckboxField>
      </section>

      <section className="settings-section" aria-labelledby="settings-server">
        <h2 id="settings-server">Server settings</h2>
        <p className="field__hint">Set where the portal server runs; shown here for reference.</p>
        <dl className="facts facts--stacked">
          <div>
            <dt>VMS</dt>
            <dd>
              {config.upstream.kind === 'sandbox'
                ? 'The embedded sandbox VMS (VMS_BASE_URL is not set)'
                : config.upstream.label}
            </dd>
          </div>
          <div>
            <dt>Date format sent to the VMS</dt>
            <dd>
              {config.dateFormat} (VMS_DATE_FORMAT). Forms use your browser’s date picker and
              convert.
            </dd>
          </div>
          <div>
            <dt>Most items in one batch</dt>
            <dd>{config.maxBatch} (VMS_MAX_BATCH)</dd>
          </div>
        </dl>
      </section>

      <section className="settings-section" aria-labelledby="settings-local">
        <h2 id="settings-local">Data kept in this browser</h2>
        <p>
          Drafts, batches not yet sent, the submissions history and suggestions are kept in this
          browser only ({keyCount} {keyCount === 1 ? 'entry' : 'entries'} in its local storage, and
          the batches and a copy of the requisition lists in its database).{' '}
          {user
            ? 'Your drafts, batches and history are also saved on the server under your account, and leave this browser when you sign out.'
            : 'Nothing here is sent anywhere until you send a batch.'}
        </p>
        <ConfirmButton
          label="Clear local data"
          title="Clear all local data?"
          confirmLabel="Clear everything"
          cancelLabel="Keep my data"
          destructive
          onConfirm={() => {
            clearPortalStorage();
            void Promise.all([clearIndexedLists(), forgetRequisitionLists()]).then(() => {
              setCleared(true);
              setKeyCount(portalStorageKeys().length);
            });
          }}
        >
          <p>
            This removes every draft, every batch not yet sent and the submissions history, for all
            client orgs, from this browser. It cannot be undone. Requisitions already in the VMS are
            not affected.
          </p>
        </ConfirmButton>
        <div role="status">
          {cleared
            ? 'Local data cleared: drafts, batches, history, suggestions and the copies of the requisition lists are gone.'
            : null}
        </div>
      </section>
    </div>
  );
}
