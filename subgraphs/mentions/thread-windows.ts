import type { Platform } from '../../vocabulary/normalized-post.ts';

const minute = 60_000;
const day = 86_400_000;

/**
 * How long a thread is followed, per platform (spec 2.1.2): a day on Reddit,
 * Hacker News and Bluesky, a week on GitHub, Stack Overflow and dev.to, a
 * month on YouTube. Others have no threads we read.
 */
const followFor: Partial<Record<Platform, number>> = {
  reddit: day,
  hackernews: day,
  bluesky: day,
  github: 7 * day,
  stackoverflow: 7 * day,
  devto: 7 * day,
  youtube: 30 * day,
};

/** Comments are read from 30 minutes after the post (spec 2.1.2). */
export const firstReadDelayMs = 30 * minute;

/** The reads of a thread, from its first until the window closes; null when the platform has none. */
export function threadWindow(platform: string, publishedAt: Date, matchedAt: Date): { firstReadAt: Date; until: Date } | null {
  const length = followFor[platform as Platform];
  if (!length) return null;
  // An old post found by a look-back gets a full window from when it was found.
  const start = Math.max(publishedAt.getTime(), matchedAt.getTime() - firstReadDelayMs);
  return { firstReadAt: new Date(start + firstReadDelayMs), until: new Date(start + length) };
}

/** About 24 reads over a window: hourly for a day, every 7 hours for a week, every 30 for a month. */
export function nextThreadRead(platform: string, now: Date, until: Date): Date | null {
  const length = followFor[platform as Platform];
  if (!length || now >= until) return null;
  return new Date(Math.min(until.getTime(), now.getTime() + length / 24));
}
