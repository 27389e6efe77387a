import { expect, type Page } from '@playwright/test';

/**
 * Test data and form steps for the requisition journeys (one generator module).
 * Values are valid for the sandbox's client org 1001 (docs/sandbox.md, "Seeded data").
 */
let counter = 0;

/** A client internal req no other test (or earlier run) uses. */
export function uniqueReference(prefix = 'E2E'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36).toUpperCase()}-${counter}`;
}

export interface SkillData {
  description: string;
  requiredDesired: string;
  experience: string;
  unit: string;
  rating: string;
}

export const threeSkills: SkillData[] = [
  {
    description: 'Java 17 and Spring Boot',
    requiredDesired: '1',
    experience: '5',
    unit: '4',
    rating: '3',
  },
  { description: 'PostgreSQL', requiredDesired: '2', experience: '3', unit: '4', rating: '2' },
  { description: 'Kubernetes', requiredDesired: '3', experience: '18', unit: '3', rating: '1' },
];

export const twoQuestions = [
  'Are you authorised to work in the United States?',
  'When could you start?',
];

export interface InsertData {
  reference: string;
  title: string;
}

export function insertData(title = 'Platform Engineer'): InsertData {
  const reference = uniqueReference();
  return { reference, title: `${title} ${reference}` };
}

/** Fills every field a new requisition needs (decision 000, "Requisition"). */
export async function fillRequiredInsert(page: Page, data: InsertData): Promise<void> {
  await page.getByLabel(/^Job title/).fill(data.title);
  await page.getByLabel(/^Number of openings/).fill('2');
  await page.getByLabel(/^Client internal req/).fill(data.reference);
  await page.getByLabel(/^Engagement type/).selectOption('1');
  await page.getByLabel(/^Req class ID/).fill('101');
  await page.getByLabel(/^Hours per day/).fill('8');
  await page.getByLabel(/^Days per week/).fill('5');
  await page.getByLabel(/^Short description/).fill('Builds and runs the payments platform.');
  await page.getByLabel(/^Requisition owner ID/).fill('mreyes');
}

export async function addSkill(page: Page, n: number, skill: SkillData): Promise<void> {
  await page.getByRole('button', { name: 'Add a skill' }).click();
  const row = page.getByRole('group', { name: `Skill ${n}`, exact: true });
  await row.getByLabel(/description/).fill(skill.description);
  await row.getByLabel(/required\/desired/).selectOption(skill.requiredDesired);
  await row.getByLabel(/amount of experience/).fill(skill.experience);
  await row.getByLabel(/experience unit/).selectOption(skill.unit);
  await row.getByLabel(/expertise rating/).fill(skill.rating);
}

export async function addQuestion(page: Page, n: number, text: string): Promise<void> {
  await page.getByRole('button', { name: 'Add a question' }).click();
  await page
    .getByRole('group', { name: `Question ${n}`, exact: true })
    .getByLabel(/text/)
    .fill(text);
}

export async function addToBatch(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Add to batch' }).click();
  await expect(page.getByText(/^Added .* to the batch/)).toBeVisible();
}

/** Sends the tray and waits for the VMS to accept it; returns the results region. */
export async function sendBatch(page: Page) {
  await page.getByRole('button', { name: /^Send batch/ }).click();
  await expect(page.getByRole('heading', { name: 'Batch accepted' })).toBeVisible();
  return page.getByRole('region', { name: /^Results of batch/ });
}

/** The JSON the form would send, read from its preview. */
export async function formJson(page: Page): Promise<Record<string, string>> {
  const preview = page.getByRole('region', { name: 'JSON of this form' });
  if (!(await preview.isVisible()))
    await page.getByText('JSON of this form', { exact: true }).click();
  const text = (await preview.textContent()) ?? '';
  return JSON.parse(text) as Record<string, string>;
}

/** A requisition as the VMS stores it, read through the portal's proxy. */
export async function fetchRequisition(
  page: Page,
  reqId: string,
): Promise<Record<string, string> | undefined> {
  const response = await page.request.get(
    `/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001&filterfield=Req_Id&filteroperator=%3D&filtervalue=${reqId}`,
  );
  expect(response.status()).toBe(200);
  const records = (await response.json()) as Array<Record<string, string>>;
  return records[0];
}
