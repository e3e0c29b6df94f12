import type { SearchPlatform } from '../../vocabulary/normalized-post.ts';

/**
 * Searches of one platform that one worker process runs at once. The poll
 * queue works up to 12 polls at a time (three batches of four), and all of
 * them may be of one platform (the scheduler queues every due term at
 * once): a burst that trips a platform's short-term limits, after which
 * every poll of it fails into its back-off. Four, one batch's worth, for
 * most; GitHub one, because its secondary rate limits count concurrent
 * requests (its guidance is to search one request at a time) and its search
 * allows 30 requests a minute (10 without a token), which a few polls of
 * five pages of three searches each spend. Per process: two workers run twice
 * as many.
 */
export const concurrentSearchesPerPlatform: Partial<Record<SearchPlatform, number>> = { github: 1 };
export const defaultConcurrentSearches = 4;

export interface PlatformPollSlots {
  /**
   * Runs `search` once a slot of its platform is free, and frees it after.
   * `first`: it goes before the searches already waiting (a look-back, which a user waits on).
   */
  run<T>(platform: SearchPlatform, first: boolean, search: () => Promise<T>): Promise<T>;
}

export function createPlatformPollSlots(limits: Partial<Record<SearchPlatform, number>> = concurrentSearchesPerPlatform): PlatformPollSlots {
  const running = new Map<SearchPlatform, number>();
  const waiting = new Map<SearchPlatform, (() => void)[]>();

  const release = (platform: SearchPlatform) => {
    const next = waiting.get(platform)?.shift();
    // The slot passes straight to the next search, so one that arrives meanwhile cannot take it first.
    if (next) next();
    else running.set(platform, (running.get(platform) ?? 1) - 1);
  };

  return {
    async run(platform, first, search) {
      const limit = limits[platform] ?? defaultConcurrentSearches;
      if ((running.get(platform) ?? 0) < limit) {
        running.set(platform, (running.get(platform) ?? 0) + 1);
      } else {
        const queue = waiting.get(platform) ?? [];
        waiting.set(platform, queue);
        await new Promise<void>((resolve) => (first ? queue.unshift(resolve) : queue.push(resolve)));
      }
      try {
        return await search();
      } finally {
        release(platform);
      }
    },
  };
}

/** This process's slots, shared by every poll it runs. */
export const platformPollSlots = createPlatformPollSlots();
