/** Every platform a mention can come from (spec 1.3, 1.4; the `PolledPlatform` enum), by its API name. */
export const platformNames: Record<string, string> = {
  hackernews: 'Hacker News',
  reddit: 'Reddit',
  bluesky: 'Bluesky',
  github: 'GitHub',
  stackoverflow: 'Stack Overflow',
  devto: 'dev.to',
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

export const platformName = (platform: string): string => platformNames[platform] ?? platform;
