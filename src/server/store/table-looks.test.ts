import { describe, expect, it } from 'vitest';
import { TableLooks } from './table-looks';

/** A look that waits until the test lets it end, recording when looks start and end. */
function heldLooks() {
  const events: string[] = [];
  const releases: (() => void)[] = [];
  let running = 0;
  let most = 0;
  const looks = new TableLooks(async () => {
    running += 1;
    most = Math.max(most, running);
    events.push(`start ${releases.length + 1}`);
    await new Promise<void>((resolve) => releases.push(resolve));
    events.push(`end ${releases.length}`);
    running -= 1;
    return null;
  });
  const release = async () => {
    // Lets the look reach its hold before it is released.
    await new Promise((resolve) => setImmediate(resolve));
    releases.at(-1)?.();
  };
  return { looks, events, release, most: () => most };
}

describe('TableLooks', () => {
  it('runs the looks woken during another once, after it, one at a time, and resolves them after it', async () => {
    const { looks, events, release, most } = heldLooks();
    const first = looks.wake();
    const second = looks.wake().then(() => events.push('second woken'));
    const third = looks.wake().then(() => events.push('third woken'));
    await release();
    await release();
    await Promise.all([first, second, third]);
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'second woken', 'third woken']);
    expect(most()).toBe(1);
  });

  it('waits on close for the look in flight, and looks no more after it', async () => {
    const { looks, events, release } = heldLooks();
    void looks.wake();
    let closed = false;
    const closing = looks.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    await release();
    await closing;
    expect(closed).toBe(true);
    await looks.wake();
    expect(events).toEqual(['start 1', 'end 1']);
  });
});
