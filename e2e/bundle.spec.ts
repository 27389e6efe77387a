import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxDemo } from '../src/sandbox/index';
import { expect, test } from './support/fixtures';

test('the app the portal serves carries no API key or secret', async ({ page, request }) => {
  await page.goto('/requisitions');
  await expect(page.getByRole('heading', { name: 'Requisitions', level: 1 })).toBeVisible();

  // Every built file, as the portal serves it (not just the ones this page loaded).
  const assets = readdirSync(join(import.meta.dirname, '..', 'dist', 'assets'));
  expect(assets.length).toBeGreaterThan(0);
  for (const file of ['/', ...assets.map((name) => `/assets/${name}`)]) {
    const response = await request.get(file);
    expect(response.status(), file).toBe(200);
    const body = await response.text();
    expect(body, file).not.toContain(sandboxDemo.apiSecret);
    expect(body, file).not.toContain(sandboxDemo.apiKey);
  }
});
