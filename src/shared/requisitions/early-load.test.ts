import { describe, expect, it } from 'vitest';
import { earlyLoad } from './early-load';

/** A load whose stored copy and result the test hands over when it chooses. */
function controlled() {
  let store: (records: string[]) => void = () => undefined;
  let finish: (result: string) => void = () => undefined;
  const load = earlyLoad<string[], string>((onStored) => {
    store = onStored;
    return new Promise((resolve) => {
      finish = resolve;
    });
  });
  return { load, store: (records: string[]) => store(records), finish: (r: string) => finish(r) };
}

describe('earlyLoad', () => {
  it('holds the copy read before anyone joined, and hands it over on joining', async () => {
    const { load, store, finish } = controlled();
    store(['40001', '40002']);
    const heard: string[][] = [];
    const result = load.join((records) => heard.push(records));
    expect(heard).toEqual([['40001', '40002']]);
    finish('whole list');
    expect(await result).toBe('whole list');
  });

  it('passes a copy read after joining straight on, once', () => {
    const { load, store } = controlled();
    const heard: string[][] = [];
    void load.join((records) => heard.push(records));
    expect(heard).toEqual([]);
    store(['40003']);
    expect(heard).toEqual([['40003']]);
  });
});
