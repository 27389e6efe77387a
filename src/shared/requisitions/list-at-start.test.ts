// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { currentConnection } from '@/shared/config/current-connection';
import { storageKey } from '@/shared/storage/local-store';
import { twoConnectionSettings } from '@/test-support/portal-settings';
import { listRequestAtStart } from './list-at-start';

const settings = twoConnectionSettings;

function pageWith(config: unknown) {
  document.head.innerHTML = `<script type="application/json" id="portal-config">${JSON.stringify(config)}</script>`;
}

beforeEach(() => {
  localStorage.clear();
  document.head.innerHTML = '';
});

describe('listRequestAtStart', () => {
  it('asks for the default connection’s first client org in a browser that chose nothing', () => {
    pageWith(settings);
    expect(listRequestAtStart()).toEqual({
      request: {
        orgs: { clientOrgId: 1001, vendorOrgId: 9001 },
        source: 'sandbox:sandbox.example',
        mainHas: false,
      },
      connection: 'sandbox',
    });
    expect(currentConnection()).toBe('sandbox');
  });

  it('follows the connection and client org chosen in this browser, as the app does', () => {
    pageWith(settings);
    localStorage.setItem(storageKey('connection'), JSON.stringify('uat'));
    localStorage.setItem(storageKey('client-org'), JSON.stringify(2002));
    expect(listRequestAtStart()).toEqual({
      request: {
        orgs: { clientOrgId: 2002, vendorOrgId: 9100 },
        source: 'remote:uat.example',
        mainHas: false,
      },
      connection: 'uat',
    });
    // A client org the connection does not act for: its first, as OrgProvider falls back.
    localStorage.setItem(storageKey('client-org'), JSON.stringify(1002));
    expect(listRequestAtStart()?.request.orgs.clientOrgId).toBe(2001);
  });

  it('asks nothing when sign-in is on, or the page carries no settings', () => {
    pageWith({ ...settings, authRequired: true });
    expect(listRequestAtStart()).toBeNull();
    pageWith({ ...settings, authRequired: undefined });
    expect(listRequestAtStart()).toBeNull();
    document.head.innerHTML = '';
    expect(listRequestAtStart()).toBeNull();
  });
});
