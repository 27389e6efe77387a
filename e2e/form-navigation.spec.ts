import { expect, test } from './support/fixtures';

test('section navigation and next/previous problem move focus through a long form', async ({
  page,
}) => {
  await page.goto('/requisitions/new');
  const nav = page.getByRole('navigation', { name: 'Form sections' });
  await expect(nav.getByRole('link')).toHaveText([
    'Basics',
    'Classification',
    'Schedule',
    'Rates',
    'Description',
    'People',
    'Accounting',
    'Skills',
    'Questions',
    'Custom fields',
  ]);
  // A section link moves focus to its heading, far down the page.
  await nav.getByRole('link', { name: 'Skills' }).click();
  await expect(page.getByRole('heading', { name: 'Skills', level: 2 })).toBeFocused();
  await expect(nav).toBeInViewport();

  // With problems: each section says how many it has, and the buttons visit them in order.
  await page.getByLabel(/^Job title/).fill('Navigator');
  await page.getByLabel(/^Days per week/).fill('9');
  await page.getByRole('button', { name: 'Add to batch' }).click();
  await expect(nav.getByRole('link', { name: /^Schedule, \d+ problems?$/ })).toBeVisible();
  await expect(nav.getByRole('link', { name: /^Basics, \d+ problems?$/ })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Questions', exact: true })).toBeVisible();

  const invalid = page.locator('form [aria-invalid="true"]');
  const count = await invalid.count();
  expect(count).toBeGreaterThan(2);
  const ids = await invalid.evaluateAll((elements) => elements.map((element) => element.id));
  const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');

  await nav.getByRole('button', { name: 'Next problem' }).click();
  expect(await focusedId()).toBe(ids[0]);
  await nav.getByRole('button', { name: 'Next problem' }).click();
  expect(await focusedId()).toBe(ids[1]);
  await nav.getByRole('button', { name: 'Previous problem' }).click();
  expect(await focusedId()).toBe(ids[0]);
  // Before the first, it wraps to the last, and says so.
  await nav.getByRole('button', { name: 'Previous problem' }).click();
  expect(await focusedId()).toBe(ids.at(-1));
  await expect(nav.getByRole('status')).toHaveText(`Back to the last of ${count} problems.`);

  // Fixing a field takes its problem out of its section's count.
  const schedule = nav.getByRole('link', { name: /^Schedule/ });
  const before = Number((await schedule.textContent())?.match(/\((\d+)\)/)?.[1]);
  expect(before).toBeGreaterThan(0);
  await page.getByLabel(/^Days per week/).fill('5');
  await expect(schedule).toHaveText(before === 1 ? 'Schedule' : `Schedule (${before - 1})`);
});
