// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SuiteFileField } from './suite-file-field';

afterEach(cleanup);

const suite = {
  name: 'Smoke',
  cases: [
    {
      id: 'create-req',
      kind: 'requisition',
      item: { titlerole: 'Analyst' },
      expect: { status: 'Success' },
    },
  ],
};

/** A chosen file; jsdom's File cannot give its text back, so the text is given as a browser's is. */
function chosen(text: string, name: string): File {
  const file = new File([text], name, { type: 'application/json' });
  return Object.assign(file, { text: () => Promise.resolve(text) });
}

function show() {
  const calls = { onChoose: vi.fn(), onRead: vi.fn(), onProblem: vi.fn() };
  render(<SuiteFileField label="Import a suite file" {...calls} />);
  return calls;
}

describe('SuiteFileField', () => {
  it('reads a chosen suite file and hands over the suite and the file', async () => {
    const calls = show();
    const file = chosen(JSON.stringify(suite), 'smoke.json');
    await userEvent.upload(screen.getByLabelText('Import a suite file'), file);
    await vi.waitFor(() => expect(calls.onRead).toHaveBeenCalledTimes(1));
    expect(calls.onChoose).toHaveBeenCalledTimes(1);
    expect(calls.onRead.mock.calls[0]?.[0]).toMatchObject({ name: 'Smoke' });
    expect((calls.onRead.mock.calls[0]?.[1] as File).name).toBe('smoke.json');
    expect(calls.onProblem).not.toHaveBeenCalled();
  });

  it('says what is wrong with a file that is not JSON, and reads nothing from it', async () => {
    const calls = show();
    const file = chosen('name,cases', 'suite.json');
    await userEvent.upload(screen.getByLabelText('Import a suite file'), file);
    await vi.waitFor(() => expect(calls.onProblem).toHaveBeenCalledTimes(1));
    expect(calls.onProblem.mock.calls[0]?.[0]).toMatch(/^suite\.json is not JSON\./);
    expect(calls.onRead).not.toHaveBeenCalled();
  });
});
