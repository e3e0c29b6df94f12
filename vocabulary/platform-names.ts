import type { Platform } from './normalized-post.ts';

/** How each platform is named to people: in chat and e-mail alerts and in the dashboard. */
export const platformNames: Record<Platform, string> = {
  bluesky: 'Bluesky',
  hackernews: 'Hacker News',
  github: 'GitHub',
  stackoverflow: 'Stack Overflow',
  devto: 'DEV',
  reddit: 'Reddit',
  x: 'X',
  youtube: 'YouTube',
  news: 'News',
  linkedin: 'LinkedIn',
  tiktok: 'TikTok',
  instagram: 'Instagram',
  appstore: 'App Store',
  googleplay: 'Google Play',
  trustpilot: 'Trustpilot',
  googlemaps: 'Google Maps',
  rss: 'RSS',
};

/** A platform's name, or the value itself for one this list does not know. */
export const platformName = (platform: string): string => platformNames[platform as Platform] ?? platform;
