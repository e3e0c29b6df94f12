import type { NormalizedPost } from '../../../vocabulary/normalized-post.ts';

const GITHUB_REPOSITORY_URL = /^https?:\/\/(?:www\.)?github\.com\/([^/?#]+)\/([^/?#]+)/iu;

/** `owner/repo` (lower case) a GitHub item belongs to: a repository item, or an issue or discussion by its address. */
export function githubRepositoryOf(post: Pick<NormalizedPost, 'platform' | 'repository' | 'url'>): string | null {
  if (post.platform !== 'github') return null;
  if (post.repository) return post.repository.fullName.toLowerCase();
  const address = GITHUB_REPOSITORY_URL.exec(post.url);
  return address ? `${address[1]}/${address[2].replace(/\.git$/iu, '')}`.toLowerCase() : null;
}
