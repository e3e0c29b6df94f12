import type { AlgoliaHackerNewsHit } from '../../jobs/connectors/hackernews.ts';
import { type FakeServerOptions, type FakeUpstream, matchesSearch, pageOf, startFakeServer } from './fake-server.ts';

/** A full `search_by_date` hit as Algolia sends it, extra fields included. */
export type HackerNewsHit = AlgoliaHackerNewsHit & Record<string, unknown>;

export interface HackerNewsStoryFixture {
  id: number;
  title: string;
  author?: string;
  createdAt: Date;
  url?: string | null;
  /** HTML, as Algolia stores Ask HN texts. */
  text?: string | null;
  points?: number;
}

export function hackerNewsStory(story: HackerNewsStoryFixture): HackerNewsHit {
  const author = story.author ?? 'pg';
  return {
    _highlightResult: {
      author: { matchLevel: 'none', matchedWords: [], value: author },
      title: { matchLevel: 'full', fullyHighlighted: false, matchedWords: [], value: story.title },
    },
    _tags: ['story', `author_${author}`, `story_${story.id}`],
    author,
    children: [],
    created_at: story.createdAt.toISOString().replace('.000Z', 'Z'),
    created_at_i: Math.floor(story.createdAt.getTime() / 1000),
    num_comments: 0,
    objectID: String(story.id),
    points: story.points ?? 1,
    story_id: story.id,
    ...(story.text ? { story_text: story.text } : {}),
    title: story.title,
    updated_at: story.createdAt.toISOString(),
    ...(story.url ? { url: story.url } : {}),
  };
}

export interface HackerNewsCommentFixture {
  id: number;
  storyId: number;
  parentId: number;
  author?: string;
  createdAt: Date;
  /** HTML with `<p>` paragraphs and escaped slashes, as Algolia stores comments. */
  text: string;
  storyTitle?: string;
}

export function hackerNewsComment(comment: HackerNewsCommentFixture): HackerNewsHit {
  const author = comment.author ?? 'dang';
  return {
    _highlightResult: {
      author: { matchLevel: 'none', matchedWords: [], value: author },
      comment_text: { matchLevel: 'full', fullyHighlighted: false, matchedWords: [], value: comment.text },
    },
    _tags: ['comment', `author_${author}`, `story_${comment.storyId}`],
    author,
    comment_text: comment.text,
    created_at: comment.createdAt.toISOString().replace('.000Z', 'Z'),
    created_at_i: Math.floor(comment.createdAt.getTime() / 1000),
    objectID: String(comment.id),
    parent_id: comment.parentId,
    story_id: comment.storyId,
    story_title: comment.storyTitle ?? 'A story',
    story_url: null,
    updated_at: comment.createdAt.toISOString(),
  };
}

/** Algolia's `tags`: comma-separated terms all required, a parenthesised list any of. */
function matchesTags(hit: HackerNewsHit, tags: string): boolean {
  return tags.split(/,(?![^(]*\))/).every((term) => {
    const anyOf = term.replace(/^\(|\)$/g, '').split(',');
    return anyOf.some((tag) => hit._tags.includes(tag));
  });
}

function matchesNumericFilters(hit: HackerNewsHit, filters: string): boolean {
  return filters.split(',').filter(Boolean).every((filter) => {
    const [, field, operator, value] = filter.match(/^(\w+)(<=|>=|<|>|=)(\d+)$/) ?? [];
    if (!field) throw new Error(`unsupported numeric filter ${filter}`);
    const actual = Number(hit[field]);
    const limit = Number(value);
    return operator === '>' ? actual > limit : operator === '>=' ? actual >= limit : operator === '<' ? actual < limit : operator === '<=' ? actual <= limit : actual === limit;
  });
}

/** The Algolia HN API's `search_by_date` over `hits`, newest first, paged as Algolia pages. */
export function startFakeHackerNews(fixtures: { hits: HackerNewsHit[] }, options: FakeServerOptions = {}): Promise<FakeUpstream> {
  return startFakeServer((request) => {
    if (request.method !== 'GET' || request.path !== '/api/v1/search_by_date') return null;
    const { query } = request;
    const hitsPerPage = Number(query.get('hitsPerPage') ?? 20);
    const page = Number(query.get('page') ?? 0);
    if (!(hitsPerPage >= 1 && hitsPerPage <= 1000)) {
      return { status: 400, body: { message: 'hitsPerPage must be between 1 and 1000', status: 400 } };
    }
    const text = query.get('query') ?? '';
    const found = fixtures.hits
      .filter((hit) => matchesTags(hit, query.get('tags') ?? ''))
      .filter((hit) => matchesNumericFilters(hit, query.get('numericFilters') ?? ''))
      .filter((hit) => matchesSearch([hit.title, hit.url, hit.author, hit.story_text, hit.comment_text].filter(Boolean).join(' '), text))
      .sort((a, b) => b.created_at_i - a.created_at_i);
    return {
      body: {
        exhaustive: { nbHits: true, typo: true },
        exhaustiveNbHits: true,
        exhaustiveTypo: true,
        hits: pageOf(found, page, hitsPerPage),
        hitsPerPage,
        nbHits: found.length,
        nbPages: Math.ceil(found.length / hitsPerPage),
        page,
        params: request.query.toString(),
        processingTimeMS: 1,
        query: text,
        serverTimeMS: 2,
      },
    };
  }, options);
}
