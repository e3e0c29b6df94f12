// Shared vocabulary, importing nothing above it: how the Octolens-compatible API (spec 4.8) names our platforms.
import { type Platform, type SearchPlatform, searchPlatforms } from './normalized-post.ts';

/** Octolens's names where they differ from ours; every other platform keeps its name. */
const octolensNames: Partial<Record<Platform, string>> = { x: 'twitter', devto: 'dev' };

/** The name Octolens gives a platform of ours (`x` is `twitter`). */
export const octolensPlatformName = (platform: string): string => octolensNames[platform as Platform] ?? platform;

/** The search platform an Octolens name stands for (`twitter`, and our own `x`, are `x`); undefined when we do not search it. */
export function searchPlatformOfOctolensName(name: string): SearchPlatform | undefined {
  const ours = (Object.entries(octolensNames).find(([, octolens]) => octolens === name)?.[0] ?? name) as SearchPlatform;
  return searchPlatforms.includes(ours) ? ours : undefined;
}

/** Every search platform under its Octolens name: what a keyword on every platform lists. */
export const octolensSearchPlatforms = searchPlatforms.map(octolensPlatformName);

/** Every name `searchPlatformOfOctolensName` reads: Octolens's, and ours where they differ. */
export const octolensSearchPlatformNames = [...new Set([...octolensSearchPlatforms, ...searchPlatforms])];
