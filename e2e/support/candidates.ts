import { expect, type Page } from '@playwright/test';

/**
 * Test data and form steps for the candidate journeys (one generator module). The
 * seeded requisitions are in docs/sandbox.md: 40001 is Open with 3 skills and 2 questions,
 * 40005 is Closed/Cancelled.
 */
let counter = 0;

export interface CandidateData {
  firstName: string;
  lastName: string;
  email: string;
}

/** A candidate whose e-mail no other test (or earlier run) uses. */
export function candidateData(firstName = 'Ada'): CandidateData {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  return {
    firstName,
    lastName: `Tester ${tag}`,
    email: `${firstName.toLowerCase()}.${tag}@example.com`,
  };
}

/** Opens the candidate form for a requisition, as its "Submit candidate" link does. */
export async function openCandidateForm(page: Page, reqId: string): Promise<void> {
  await page.goto(`/candidates?reqId=${reqId}`);
  await expect(
    page.getByRole('heading', { level: 1, name: `Submit a candidate to requisition ${reqId}` }),
  ).toBeVisible();
}

export async function fillCandidate(page: Page, data: CandidateData): Promise<void> {
  await page.getByLabel(/^First name/).fill(data.firstName);
  await page.getByLabel(/^Last name/).fill(data.lastName);
  await page.getByLabel(/^E-mail/).fill(data.email);
  await page.getByLabel(/^Engagement type/).selectOption('1');
}

/** Responds to skills 1..n ("Meets", years of experience) and answers questions 1..m. */
export async function answerRequisition(
  page: Page,
  skills: number,
  questions: number,
): Promise<void> {
  for (let n = 1; n <= skills; n += 1) {
    await page.getByLabel(new RegExp(`^Skill ${n} response`)).selectOption('3');
    await page.getByLabel(new RegExp(`^Skill ${n} experience ·`)).fill(String(n + 2));
    await page.getByLabel(new RegExp(`^Skill ${n} experience unit`)).selectOption('4');
  }
  for (let n = 1; n <= questions; n += 1)
    await page.getByLabel(new RegExp(`^Answer to question ${n}`)).fill(`Answer ${n}: yes.`);
}

export async function addCandidateToBatch(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Add to batch' }).click();
  await expect(page.getByText(/^Added .* to the batch/)).toBeVisible();
}

/** Ticks the acknowledgement of the warnings shown. */
export async function acknowledgeWarnings(page: Page): Promise<void> {
  await page.getByRole('checkbox', { name: /^I have read (this warning|these warnings)/ }).check();
}
