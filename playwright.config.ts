import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// This machine cannot download Playwright's browsers; use the OS Chromium when it is there.
const systemChromium = '/usr/bin/chromium';
const launchOptions = existsSync(systemChromium)
  ? {
      executablePath: systemChromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    }
  : {};

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? 'list' : [['list'], ['html', { open: 'never' }]],
  use: {
    ...devices['Desktop Chrome'],
    launchOptions,
    trace: 'retain-on-failure',
  },
  globalSetup: './e2e/global-setup.ts',
  projects: [
    { name: 'chromium' },
    // The sign-in journeys, the audit trail and one person's data again with every store in
    // PostgreSQL (DATABASE_URL).
    {
      name: 'chromium-postgres',
      testMatch: ['sign-in.spec.ts', 'audit.spec.ts', 'personal-data-journey.spec.ts'],
    },
  ],
});
