import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amendWire, loadedRecordOf, requisitionRecordSchema } from '@/domain';
import { startTestSandbox, type TestSandbox } from './sandbox-client';

// Decision 003 against the sandbox's Amend rules (decision 011: skills and questions are sets,
// replaced whole when any of their fields is given): what amendWire sends keeps what the user
// did not change.

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

async function loaded(reqId: number) {
  return loadedRecordOf(requisitionRecordSchema.parse(await sandbox.requisition(reqId)));
}

describe('an Amend built from the loaded record', () => {
  it('changes one skill and keeps the others', async () => {
    const before = await loaded(40001);
    expect(before.values.skilldescription3).not.toBe('');
    const wire = amendWire(before.values, { ...before.values, requireddesired2: '4' });
    const [row] = await sandbox.importRequisitions([wire]);
    expect([row?.Status, row?.ErrorMessage]).toEqual(['Success', '']);
    const after = await loaded(40001);
    expect(after.values.requireddesired2).toBe('4');
    for (const n of [1, 3]) {
      expect(after.values[`skilldescription${n}`]).toBe(before.values[`skilldescription${n}`]);
      expect(after.values[`requireddesired${n}`]).toBe(before.values[`requireddesired${n}`]);
    }
    expect(after.values.titlerole).toBe(before.values.titlerole);
  });

  it('removes the last skill, keeping the rest', async () => {
    const before = await loaded(40012);
    const edited = { ...before.values };
    for (const key of Object.keys(edited))
      if (
        /^(skill|skilldescription|requireddesired|amountofexperience|amountofexperiencetype|expertiserating)3$/.test(
          key,
        )
      )
        edited[key] = '';
    const [row] = await sandbox.importRequisitions([amendWire(before.values, edited)]);
    expect(row?.Status).toBe('Success');
    const after = await loaded(40012);
    expect(after.values.skilldescription3).toBe('');
    expect(after.values.skilldescription1).toBe(before.values.skilldescription1);
    expect(after.values.skilldescription2).toBe(before.values.skilldescription2);
  });
});
