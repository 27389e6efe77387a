import { expect, test } from './support/fixtures';

// The sandbox's demo requisitions of client org 1001 include 40004 Filled, 40005 Closed/Cancelled,
// 40006 On Hold and 40007, Open but taking no new submittals after 2026-06-30.

test('the list filters by status chips and Only submittable, keeps them in the address, and disables Submit where a requisition takes no candidates', async ({
  page,
}) => {
  await page.goto('/requisitions');
  const table = page.getByRole('region', { name: 'Requisitions' });
  const rowOf = (reqId: string) =>
    table.getByRole('row').filter({ has: page.getByRole('cell', { name: reqId, exact: true }) });
  await expect(rowOf('40001')).toBeVisible();

  const chips = page.getByRole('group', { name: 'Status' });
  await chips.getByRole('button', { name: /^Filled \d+$/ }).click();
  await expect(chips.getByRole('button', { name: /^Filled/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page).toHaveURL(/[?&]status=6(&|$)/);
  const statusCells = table.getByRole('row').locator('td:nth-child(4)');
  await expect(statusCells.first()).toHaveText('Filled');
  expect(new Set(await statusCells.allTextContents())).toEqual(new Set(['Filled']));
  await page.reload();
  await expect(chips.getByRole('button', { name: /^Filled/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(rowOf('40004')).toBeVisible();
  await expect(rowOf('40001')).toHaveCount(0);

  // Only submittable, with no chip: none of the four that take no candidates.
  await chips.getByRole('button', { name: /^Filled/ }).click();
  await page.getByLabel(/^Only submittable/).check();
  await expect(page).toHaveURL(/[?&]submittable=1(&|$)/);
  await expect(rowOf('40001')).toBeVisible();
  await expect(rowOf('40003')).toBeVisible();
  for (const reqId of ['40004', '40005', '40006', '40007'])
    await expect(rowOf(reqId)).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'shown' })).toContainText(
    'only those taking candidates',
  );

  // Without it, a closed requisition is listed, but its Submit is disabled with the reason.
  await page.getByLabel(/^Only submittable/).uncheck();
  const closed = rowOf('40005').getByRole('button', {
    name: 'Submit candidate to requisition 40005',
  });
  await expect(closed).toHaveAttribute('aria-disabled', 'true');
  await expect(closed).toHaveAccessibleDescription(
    'Closed/Cancelled: only Open or Interview occurring requisitions take candidates',
  );
  await closed.click({ force: true });
  await expect(page).toHaveURL(/\/requisitions(\?|$)/);
  await expect(
    rowOf('40007').getByRole('button', { name: 'Submit candidate to requisition 40007' }),
  ).toHaveAccessibleDescription('Took no new submittals after 2026-06-30');
  await expect(
    rowOf('40001').getByRole('link', { name: 'Submit candidate to requisition 40001' }),
  ).toHaveAttribute('href', '/candidates?reqId=40001');
});

test('the candidate picker hides requisitions that take no candidates unless asked', async ({
  page,
}) => {
  await page.goto('/candidates');
  const matches = page.getByRole('list', { name: 'Matching requisitions' });
  await page.getByLabel(/^Search by Req ID/).fill('4000');
  await expect(matches.getByRole('link', { name: /requisition 40001,/ })).toBeVisible();
  for (const reqId of ['40004', '40005', '40006', '40007'])
    await expect(
      matches.getByRole('link', { name: new RegExp(`requisition ${reqId},`) }),
    ).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'match' })).toContainText(
    'others take no candidates now and are hidden',
  );

  await page.getByLabel(/^Only requisitions taking candidates/).uncheck();
  const onHold = matches.getByRole('listitem').filter({ hasText: '40006' });
  await expect(onHold).toContainText(
    'takes no candidates now: On Hold: only Open or Interview occurring requisitions take candidates',
  );
});
