import { expect, test } from './support/fixtures';
import { addSkill, formJson, threeSkills } from './support/requisitions';

test('removing a middle skill row renumbers the JSON; the add button stops at 10 and says why', async ({
  page,
}) => {
  await page.goto('/requisitions/new');
  for (const [index, skill] of threeSkills.entries()) await addSkill(page, index + 1, skill);

  let json = await formJson(page);
  expect(json).toMatchObject({
    skill1: '1',
    skilldescription1: 'Java 17 and Spring Boot',
    skill2: '2',
    skilldescription2: 'PostgreSQL',
    skill3: '3',
    skilldescription3: 'Kubernetes',
    amountofexperience3: '18',
  });

  await page.getByRole('button', { name: 'Remove Skill 2' }).click();
  await expect(page.getByRole('group', { name: /^Skill \d+$/ })).toHaveCount(2);
  json = await formJson(page);
  expect(json).toMatchObject({
    skill1: '1',
    skilldescription1: 'Java 17 and Spring Boot',
    skill2: '2',
    skilldescription2: 'Kubernetes',
    requireddesired2: '3',
    amountofexperience2: '18',
    amountofexperiencetype2: '3',
    skill3: '',
    skilldescription3: '',
    amountofexperience3: '',
  });

  // Moving rows renumbers them too.
  await page.getByRole('button', { name: 'Move up Skill 2' }).click();
  json = await formJson(page);
  expect(json).toMatchObject({
    skilldescription1: 'Kubernetes',
    skilldescription2: 'Java 17 and Spring Boot',
  });

  const add = page.getByRole('button', { name: 'Add a skill' });
  for (let n = 3; n <= 10; n += 1) await add.click();
  await expect(page.getByRole('group', { name: /^Skill \d+$/ })).toHaveCount(10);
  await expect(add).toBeDisabled();
  await expect(add).toHaveAccessibleDescription(
    /A requisition can have at most 10 skills: remove one to add another\./,
  );
});
