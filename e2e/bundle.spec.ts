import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxDemo } from '@/sandbox/index';
import { expect, test } from './support/fixtures';

test('the app the portal serves carries no API key or secret', async ({ page, request }) => {
  await page.goto('/requisitions');
  await expect(page.getByRole('heading', { name: 'Requisitions', level: 1 })).toBeVisible();

  // Every built file, as the portal serves it (not just the ones this page loaded).
  // (.br and .gz files are compressed copies of the ones checked.)
  const assets = readdirSync(join(import.meta.dirname, '..', 'dist', 'assets')).filter(
    (name) => !/\.(?:br|gz)$/.test(name),
  );
  expect(assets.length).toBeGreaterThan(0);
  for (const file of ['/', ...assets.map((name) => `/assets/${name}`)]) {
    const response = await request.get(file);
    expect(response.status(), file).toBe(200);
    const body = await response.text();
    expect(body, file).not.toContain(sandboxDemo.apiSecret);
    expect(body, file).not.toContain(sandboxDemo.apiKey);
  }
});

test('a cold start waits for no settings request and gets its code compressed and preloaded', async ({
  page,
}) => {
  const requested: string[] = [];
  const encodings = new Map<string, { encoding: string | undefined; bytes: number }>();
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.endsWith('.js')) {
      const headers = response.headers();
      encodings.set(path, {
        encoding: headers['content-encoding'],
        bytes: Number(headers['content-length'] ?? Number.NaN),
      });
    }
  });
  await page.goto('/requisitions/new');
  await expect(page.getByRole('heading', { name: 'New requisition', level: 1 })).toBeVisible();

  // The settings came with the page, and the form's code was named in it for preloading.
  expect(requested).not.toContain('/api/config');
  const preloaded = await page.$$eval('link[rel=modulepreload]', (links) =>
    links.map((link) => new URL((link as HTMLLinkElement).href).pathname),
  );
  expect(preloaded.some((path) => /\/requisition-workspace-route-[\w-]+\.js$/.test(path))).toBe(
    true,
  );
  for (const path of preloaded) expect(requested, path).toContain(path);
  // Nothing of the app is fetched while the prerendered page is being drawn: the page's inline
  // script preloads the modules and imports the entry once it has been (decision 040).
  const served = await (
    await page.request.get('/requisitions/new', { headers: { accept: 'text/html' } })
  ).text();
  expect(served).not.toMatch(/<link[^>]*modulepreload/);
  expect(served).toMatch(/<script type="application\/json" id="page-modules">.*workspace-/);
  expect(await page.locator('script[type=module]').count()).toBe(0);
  const inline = (await page.locator('script:not([src]):not([type])').allTextContents()).join('\n');
  const entry = /import\("([^"]+)"\)/.exec(inline)?.[1];
  expect(preloaded).toContain(entry);
  // The code every page starts with (the entry) and the form's own chunks open with V8's
  // eager-compile hint, so their functions are compiled off the main thread as they arrive.
  const hinted = [
    entry,
    ...preloaded.filter((path) => /\/(?:workspace|zod)-[\w-]+\.js$/.test(path)),
  ];
  expect(hinted).toHaveLength(3);
  for (const path of hinted) {
    const text = await (await page.request.get(path ?? '')).text();
    expect(text.split('\n', 1)[0], path).toBe('//# allFunctionsCalledOnLoad');
  }
  // Every script came brotli-compressed (but a few dozen bytes, which compression would enlarge).
  expect(encodings.size).toBeGreaterThan(3);
  for (const [path, { encoding, bytes }] of encodings) {
    if (encoding === undefined) expect(bytes, path).toBeLessThan(100);
    else expect(encoding, path).toBe('br');
  }
});
