import { insertSession } from '../subgraphs/team/session-store.ts';
import { addMember } from '../subgraphs/team/member-store.ts';
import { findOrCreateUser } from '../subgraphs/team/user-store.ts';
import { provisionWorkspace } from '../subgraphs/team/workspace-provisioning.ts';
import { saveClassification, storeMatchedPosts } from '../subgraphs/mentions/mention-store.ts';
import type { NormalizedAuthor, NormalizedPost, Platform } from '../vocabulary/normalized-post.ts';
import type { TestEarshot } from './harness.ts';

/** Workspaces, accounts and posts for the people, segment and analytics tests. */

let sequence = 0;

/** An account on a platform, with the profile links the platform would give (`undefined`: it does not say). */
export function account(platform: Platform, handle: string, options: { links?: string[]; followers?: number | null; name?: string } = {}): NormalizedAuthor & { platform: Platform } {
  const urls: Partial<Record<Platform, string>> = {
    github: `https://github.com/${handle}`,
    x: `https://x.com/${handle}`,
    devto: `https://dev.to/${handle}`,
    bluesky: `https://bsky.app/profile/${handle}`,
    reddit: `https://reddit.com/u/${handle}`,
    hackernews: `https://news.ycombinator.com/user?id=${handle}`,
  };
  return {
    platform,
    platformId: `${platform}-${handle}`,
    name: options.name ?? handle,
    handle,
    url: urls[platform] ?? `https://${platform}.example/${handle}`,
    avatarUrl: null,
    followers: options.followers === undefined ? 10 : options.followers,
    ...(options.links ? { links: options.links } : {}),
  };
}

export function postBy(author: NormalizedAuthor & { platform: Platform }, text = 'Acme keeps our builds fast', publishedAt = new Date()): NormalizedPost {
  const { platform, ...rest } = author;
  sequence += 1;
  return {
    platform,
    externalId: `${author.handle}-${sequence}-${Date.now()}`,
    url: `https://${platform}.example/${author.handle}/posts/${sequence}`,
    text,
    publishedAt,
    replyTo: null,
    links: [],
    author: rest,
  };
}

export interface SeededWorkspace {
  workspaceId: string;
  key: string;
  keywordId: string;
  ownerId: string;
  memberId: string;
}

/** A workspace with an owner and a member (both users), a write key and one keyword. */
export async function seedWorkspace(earshot: TestEarshot, label: string, term = 'Acme'): Promise<SeededWorkspace> {
  const created = await provisionWorkspace(earshot.sql, `People ${label}`, { ownerEmail: `owner.${label}@example.com` });
  const member = await findOrCreateUser(earshot.sql, { email: `member.${label}@example.com`, name: `Member ${label}` });
  await addMember(earshot.sql, { workspaceId: created.workspace.id, userId: member.id, role: 'member' });
  const keyword = await earshot.rest('POST', '/v1/keywords', { key: created.apiKey, body: { term } });
  if (keyword.status !== 201 && keyword.status !== 200) throw new Error(`keyword ${term} not created: ${JSON.stringify(keyword.body)}`);
  return { workspaceId: created.workspace.id, key: created.apiKey, keywordId: keyword.body.id, ownerId: created.owner!.id, memberId: member.id };
}

/** Stores the posts as mentions of the keyword and answers their ids, in order. */
export async function storePosts(earshot: TestEarshot, workspace: Pick<SeededWorkspace, 'workspaceId' | 'keywordId'>, posts: NormalizedPost[]): Promise<string[]> {
  const stored = await storeMatchedPosts(
    earshot.sql,
    posts.map((post) => ({ post, matches: [{ keywordId: workspace.keywordId, workspaceId: workspace.workspaceId, fuzzy: false }] })),
  );
  return stored.map((mention) => mention.id);
}

/** Records a classifier result on a stored mention, as scoring would. */
export async function classify(
  earshot: TestEarshot,
  mentionId: string,
  result: { relevance?: number; sentiment?: 'positive' | 'negative' | 'neutral'; automated?: boolean; language?: string | null; intents?: ('buy_intent' | 'question' | 'complaint' | 'praise' | 'comparison')[] } = {},
): Promise<void> {
  await saveClassification(
    earshot.sql,
    mentionId,
    {
      relevance: result.relevance ?? 80,
      sentiment: result.sentiment ?? 'neutral',
      intents: result.intents ?? [],
      automated: result.automated ?? false,
      language: result.language === undefined ? 'en' : result.language,
      note: '',
      priority: 1,
    },
    new Date(),
  );
}

/** The cookie and CSRF headers of a dashboard session of `userId` in the workspace. */
export async function sessionHeaders(earshot: TestEarshot, userId: string, workspaceId: string): Promise<Record<string, string>> {
  const session = await insertSession(earshot.sql, { userId, workspaceId });
  return { cookie: `earshot_session=${session.token}; earshot_csrf=${session.csrfToken}`, 'x-csrf-token': session.csrfToken };
}

/** The id of the person a mention's author belongs to, as GraphQL shows it. */
export async function personOf(earshot: TestEarshot, key: string, mentionId: string): Promise<string> {
  const answer = await earshot.graphql(`query($id: ID!) { mention(id: $id) { person { id } } }`, { id: mentionId }, key);
  if (answer.body.errors) throw new Error(JSON.stringify(answer.body.errors));
  return answer.body.data.mention.person.id;
}
