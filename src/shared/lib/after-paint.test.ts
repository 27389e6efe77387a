// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterNextPaint, afterPaintAndIdle } from './after-paint';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

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

describe('afterPaintAndIdle', () => {
  it('waits, after the frame, for the browser to have a moment, at most as long as it is told', async () => {
    const order: string[] = [];
    let idle: (() => void) | undefined;
    const asked = vi.fn((callback: () => void, options?: { timeout?: number }) => {
      order.push(`idle asked, at most ${options?.timeout} ms`);
      idle = callback;
      return 1;
    });
    vi.stubGlobal('requestIdleCallback', asked);
    requestAnimationFrame(() => order.push('frame'));
    let done = false;
    const waited = afterPaintAndIdle(300).then(() => (done = true));
    await vi.waitFor(() => expect(asked).toHaveBeenCalledOnce());
    expect(order).toEqual(['frame', 'idle asked, at most 300 ms']);
    await Promise.resolve();
    expect(done).toBe(false);
    idle?.();
    await waited;
    expect(done).toBe(true);
  });

  it('does not wait for a moment where the browser cannot say when it has one', async () => {
    expect(typeof requestIdleCallback).toBe('undefined');
    await afterPaintAndIdle(300);
  });
});
