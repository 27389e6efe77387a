import { startVmsHop } from './vms-hop';

/**
 * A real HTTP hop between the portal and the sandbox whose answers to POSTs arrive late: the VMS
 * receives and processes the batch at once, but its answer reaches the portal only after
 * `answerDelayMs`. This is how a lost answer looks from the portal's side.
 */
export interface SlowVms {
  url: string;
  /** POSTs that reached the VMS through this hop. */
  posts(): number;
  setAnswerDelay(ms: number): void;
  close(): Promise<void>;
}

export async function startSlowVms(targetUrl: string, answerDelayMs: number): Promise<SlowVms> {
  let posts = 0;
  let delay = answerDelayMs;
  const timers = new Set<NodeJS.Timeout>();
  const hop = await startVmsHop(targetUrl, {
    answer(incoming, answer, send) {
      const isPost = incoming.method === 'POST';
      if (isPost) posts += 1;
      if (!isPost || delay === 0) return send(answer);
      const timer = setTimeout(() => {
        timers.delete(timer);
        send(answer);
      }, delay);
      timers.add(timer);
    },
  });
  return {
    url: hop.url,
    posts: () => posts,
    setAnswerDelay: (ms) => {
      delay = ms;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      await hop.close();
    },
  };
}
