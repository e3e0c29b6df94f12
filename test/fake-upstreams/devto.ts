import type { ForemComment, ForemUser } from '../../jobs/connectors/devto.ts';
import { type FakeServerOptions, type FakeUpstream, pageOf, startFakeServer } from './fake-server.ts';

export function foremUser(username: string, userId: number, name = username): ForemUser & Record<string, unknown> {
  return {
    name,
    username,
    twitter_username: null,
    github_username: username,
    user_id: userId,
    website_url: null,
    profile_image: `https://media2.dev.to/dynamic/image/width=640,height=640,fit=cover,gravity=auto,format=auto/uploads/user/profile_image/${userId}/avatar.png`,
    profile_image_90: `https://media2.dev.to/dynamic/image/width=90,height=90,fit=cover,gravity=auto,format=auto/uploads/user/profile_image/${userId}/avatar.png`,
  };
}

export interface DevToArticleFixture {
  id: number;
  title: string;
  /** Defaults to the body's opening, as Forem does. */
  description?: string;
  bodyHtml: string;
  tags?: string[];
  publishedAt: Date;
  user?: ForemUser & Record<string, unknown>;
}

/** An article as the fake stores it; the list and the single-article endpoints each show it their way. */
export type DevToArticle = Required<Omit<DevToArticleFixture, 'publishedAt'>> & { publishedAt: Date; slug: string };

export function devToArticle(article: DevToArticleFixture): DevToArticle {
  const slug = `${article.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-${article.id.toString(36)}`;
  return {
    description: article.bodyHtml.replace(/<[^>]+>/g, '').slice(0, 140),
    tags: [],
    user: foremUser('ben', 1),
    ...article,
    slug,
  };
}

function summary(article: DevToArticle) {
  const { user } = article;
  const stamp = article.publishedAt.toISOString().replace('.000Z', 'Z');
  return {
    type_of: 'article',
    id: article.id,
    title: article.title,
    description: article.description,
    readable_publish_date: article.publishedAt.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }),
    slug: article.slug,
    path: `/${user.username}/${article.slug}`,
    url: `https://dev.to/${user.username}/${article.slug}`,
    comments_count: 0,
    public_reactions_count: 4,
    collection_id: null,
    published_timestamp: stamp,
    language: 'en',
    positive_reactions_count: 4,
    cover_image: null,
    social_image: `https://media2.dev.to/dynamic/image/width=1000,height=500/social/${article.id}.png`,
    canonical_url: `https://dev.to/${user.username}/${article.slug}`,
    created_at: stamp,
    edited_at: null,
    crossposted_at: null,
    published_at: stamp,
    last_comment_at: stamp,
    reading_time_minutes: 2,
    tag_list: article.tags,
    tags: article.tags.join(', '),
    user,
  };
}

/** `/api/articles/{id}` swaps the tag fields of the list (string `tag_list`, array `tags`) and adds the body. */
function single(article: DevToArticle) {
  return {
    ...summary(article),
    tag_list: article.tags.join(', '),
    tags: article.tags,
    body_html: article.bodyHtml,
    body_markdown: article.bodyHtml.replace(/<[^>]+>/g, ''),
  };
}

export function devToComment(comment: { idCode: string; bodyHtml: string; createdAt: Date; user?: ForemUser & Record<string, unknown>; children?: ForemComment[]; deleted?: boolean }): ForemComment & Record<string, unknown> {
  return {
    type_of: 'comment',
    id_code: comment.idCode,
    created_at: comment.createdAt.toISOString().replace('.000Z', 'Z'),
    image_url: null,
    body_html: comment.deleted ? '<p>[deleted]</p>' : comment.bodyHtml,
    ...(comment.deleted ? { deleted: true } : { user: comment.user ?? foremUser('jess', 2) }),
    children: comment.children ?? [],
  };
}

/** The Forem API v1: newest articles, one article, an article's comment trees. */
export function startFakeDevTo(fixtures: { articles: DevToArticle[]; comments?: Record<number, ForemComment[]> }, options: FakeServerOptions = {}): Promise<FakeUpstream> {
  return startFakeServer((request) => {
    if (request.method !== 'GET') return null;
    if (request.headers.accept !== 'application/vnd.forem.api-v1+json') return { status: 400, body: { error: 'fake: Forem v1 accept header expected', status: 400 } };
    const { query } = request;
    if (request.path === '/api/articles/latest') {
      const perPage = Number(query.get('per_page') ?? 30);
      const page = Number(query.get('page') ?? 1);
      if (!(perPage >= 1 && perPage <= 1000)) return { status: 422, body: { error: 'per_page must be between 1 and 1000', status: 422 } };
      const newest = [...fixtures.articles].sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
      return { body: pageOf(newest, page - 1, perPage).map(summary) };
    }
    const articlePath = request.path.match(/^\/api\/articles\/(\d+)$/);
    if (articlePath) {
      const article = fixtures.articles.find((candidate) => candidate.id === Number(articlePath[1]));
      return article ? { body: single(article) } : { status: 404, body: { error: 'not found', status: 404 } };
    }
    if (request.path === '/api/comments') {
      const articleId = Number(query.get('a_id'));
      if (!fixtures.articles.some((article) => article.id === articleId)) return { status: 404, body: { error: 'not found', status: 404 } };
      return { body: fixtures.comments?.[articleId] ?? [] };
    }
    return null;
  }, options);
}
