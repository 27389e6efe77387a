import { requisitionInsert } from '@/test-support/test-data';
import { insertRequisitions } from './support/colleague';
import { expect, test } from './support/fixtures';

// Text users typed can be 5,000 characters without a break, or carry a
// right-to-left override; neither may widen the page or reorder the text around it.

test('a 5,000-character title wraps on the candidate page and in the list', async ({ page }) => {
  const longTitle = 'W'.repeat(5000);
  const [reqId] = await insertRequisitions(page, [requisitionInsert({ titlerole: longTitle })]);
  for (const path of [`/candidates?reqId=${reqId}`, '/requisitions']) {
    await page.goto(path);
    await expect(page.getByText(longTitle).first()).toBeVisible();
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
    }));
    expect(widths.page, path).toBeLessThanOrEqual(widths.viewport);
  }
});

test('a right-to-left override in a title does not reorder the text after it', async ({ page }) => {
  const reference = `RTL-${Date.now()}`;
  await insertRequisitions(page, [
    requisitionInsert({ titlerole: '\u202Eevil title', clientinternalreq: reference }),
  ]);
  await page.goto('/candidates');
  await page.getByLabel(/^Search by Req ID/).fill(reference);
  const entry = page.getByRole('list', { name: 'Matching requisitions' }).getByRole('listitem');
  await expect(entry).toHaveCount(1);
  // The reference after the title still reads left to right: its first letter is drawn left of
  // its last.
  const order = await entry.evaluate((element, text) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(text) ?? -1;
      if (at < 0) continue;
      const rect = (offset: number) => {
        const range = document.createRange();
        range.setStart(node, offset);
        range.setEnd(node, offset + 1);
        return range.getBoundingClientRect().left;
      };
      return { first: rect(at), last: rect(at + text.length - 1) };
    }
    return null;
  }, reference);
  expect(order).not.toBeNull();
  expect(order!.first).toBeLessThan(order!.last);
});
