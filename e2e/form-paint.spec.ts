import type { Page } from '@playwright/test';
import { openCandidateForm } from './support/candidates';
import { expect, test } from './support/fixtures';

// Chromium re-records a page's paint after every keystroke, reusing its cache per stacking
// context: a field typed into repaints alone only when it has one of its own (decision 022).

/**
 * Holds every typed control of the page's form to a stacking context of its own, and the form to
 * be drawn whole: the controls named by `drawn` are among them. Returns the controls' ids.
 */
async function expectEachFieldPaintedApart(page: Page, drawn: readonly string[]) {
  const report = await page.evaluate(() => {
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
  expect(report.controls).toEqual(expect.arrayContaining([...drawn]));
  expect(report.shared).toEqual([]);
  return report.controls;
}

test('every field of the requisition form, skill rows included, is painted apart from the others', async ({
  page,
}) => {
  await page.goto('/requisitions/new');
  const add = page.getByRole('button', { name: 'Add a skill' });
  for (let n = 1; n <= 3; n += 1) await add.click();
  await expect(page.getByRole('group', { name: /^Skill \d+$/ })).toHaveCount(3);

  // Every section is drawn, from the first field to the skill rows and the last custom field.
  const controls = await expectEachFieldPaintedApart(page, [
    'field-titlerole',
    'field-skills-2-description',
    'field-skills-2-amountofexperience',
    'field-customfieldvalue10',
  ]);
  expect(controls.length).toBeGreaterThan(50);
});

test('every field of the candidate form, skill responses and answers included, is painted apart', async ({
  page,
}) => {
  await openCandidateForm(page, '40001');
  await expect(page.getByRole('group', { name: /^Question \d+$/ })).toHaveCount(2);

  await expectEachFieldPaintedApart(page, [
    'field-firstname',
    'field-skillResponses-2-duration',
    'field-answers-1-answer',
    'field-candcustomfield5',
  ]);
});
