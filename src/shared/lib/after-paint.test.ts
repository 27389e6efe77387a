// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterNextPaint } from './after-paint';

afterEach(() => vi.restoreAllMocks());

describe('afterNextPaint', () => {
  it('resolves after the next frame’s callbacks, not before', async () => {
    const order: string[] = [];
    const waited = afterNextPaint().then(() => order.push('after paint'));
    requestAnimationFrame(() => order.push('frame'));
    await Promise.resolve();
    expect(order).toEqual([]);
    await waited;
    expect(order).toEqual(['frame', 'after paint']);
  });

  it('does not wait for a frame a hidden page never draws', async () => {
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const frame = vi.spyOn(window, 'requestAnimationFrame');
    await afterNextPaint();
    expect(frame).not.toHaveBeenCalled();
  });

  it('gives up waiting when no frame comes', async () => {
    vi.useFakeTimers();
    try {
      vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
      let done = false;
      void afterNextPaint().then(() => (done = true));
      await vi.advanceTimersByTimeAsync(99);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
