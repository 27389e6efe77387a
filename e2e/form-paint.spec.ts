import type { Page } from '@playwright/test';
import { openCandidateForm } from './support/candidates';
import { expect, test } from './support/fixtures';

// Chromium re-records a page's paint after every keystroke, reusing its cache per stacking
// context: a field typed into repaints alone only when it has one of its own (decision 022).

/** The form's typed controls (ids), and those that share a stacking context with another. */
function paintGroups(page: Page) {
  return page.evaluate(() => {
    const typed =
      'input:not([type=radio]):not([type=checkbox]):not([type=hidden]), select, textarea';
    const form = document.querySelector('main form');
    if (!form) return { controls: [], shared: ['no form'] };
    const controls = [...form.querySelectorAll<HTMLElement>(typed)];
    const shared: string[] = [];
    for (const control of controls) {
      let box = control.parentElement;
      while (box && box !== form && getComputedStyle(box).isolation !== 'isolate')
        box = box.parentElement;
      const alone = box && box !== form && box.querySelectorAll(typed).length === 1;
      if (!alone) shared.push(control.id || control.getAttribute('name') || control.outerHTML);
    }
    return { controls: controls.map((control) => control.id), shared };
  });
}

test('every field of the requisition form, skill rows included, is painted apart from the others', async ({
  page,
}) => {
  await page.goto('/requisitions/new');
  const add = page.getByRole('button', { name: 'Add a skill' });
  for (let n = 1; n <= 3; n += 1) await add.click();
  await expect(page.getByRole('group', { name: /^Skill \d+$/ })).toHaveCount(3);

  const report = await paintGroups(page);
  // Every section is drawn, from the first field to the skill rows and the last custom field.
  expect(report.controls).toEqual(
    expect.arrayContaining([
      'field-titlerole',
      'field-skills-2-description',
      'field-skills-2-amountofexperience',
      'field-customfieldvalue10',
    ]),
  );
  expect(report.controls.length).toBeGreaterThan(50);
  expect(report.shared).toEqual([]);
});

test('every field of the candidate form, skill responses and answers included, is painted apart', async ({
  page,
}) => {
  await openCandidateForm(page, '40001');
  await expect(page.getByRole('group', { name: /^Question \d+$/ })).toHaveCount(2);

  const report = await paintGroups(page);
  expect(report.controls).toEqual(
    expect.arrayContaining([
      'field-firstname',
      'field-skillResponses-2-duration',
      'field-answers-1-answer',
      'field-candcustomfield5',
    ]),
  );
  expect(report.shared).toEqual([]);
});
