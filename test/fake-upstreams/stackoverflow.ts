import type { StackExchangeAnswer, StackExchangeComment, StackExchangeOwner, StackExchangeQuestion } from '../../jobs/connectors/stackoverflow.ts';
import { type FakeServerOptions, type FakeUpstream, matchesSearch, pageOf, startFakeServer } from './fake-server.ts';

type Item<T> = T & Record<string, unknown>;
/** The API sends a body with the `withbody` filter and a question's link always: a fixture has them. */
type Post<T> = Item<T & { body: string }>;
type Question = Post<StackExchangeQuestion & { link: string }>;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A `shallow_user`; pass no id for a deleted account (`does_not_exist`). */
export function stackExchangeUser(displayName: string, userId?: number): Item<StackExchangeOwner> {
  if (userId === undefined) return { user_type: 'does_not_exist', display_name: displayName };
  return {
    account_id: userId + 100_000,
    reputation: 1234,
    user_id: userId,
    user_type: 'registered',
    accept_rate: 80,
    profile_image: `https://www.gravatar.com/avatar/${userId.toString(16).padStart(32, '0')}?s=256&d=identicon&r=PG`,
    display_name: displayName,
    link: `https://stackoverflow.com/users/${userId}/${displayName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
  };
}

/** `title` and `body` as the API sends them: HTML with entities escaped. */
export function stackOverflowQuestion(question: { id: number; title: string; body: string; createdAt: Date; owner?: Item<StackExchangeOwner>; tags?: string[] }): Question {
  return {
    tags: question.tags ?? ['javascript'],
    owner: question.owner ?? stackExchangeUser('Ada', 4242),
    is_answered: false,
    view_count: 17,
    answer_count: 0,
    score: 1,
    last_activity_date: seconds(question.createdAt),
    creation_date: seconds(question.createdAt),
    question_id: question.id,
    content_license: 'CC BY-SA 4.0',
    link: `https://stackoverflow.com/questions/${question.id}/${question.title.toLowerCase().replace(/&[a-z#0-9]+;/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`,
    title: question.title,
    body: question.body,
  };
}

export function stackOverflowAnswer(answer: { id: number; questionId: number; body: string; createdAt: Date; owner?: Item<StackExchangeOwner> }): Post<StackExchangeAnswer> {
  return {
    owner: answer.owner ?? stackExchangeUser('Grace', 5151),
    is_accepted: false,
    score: 0,
    last_activity_date: seconds(answer.createdAt),
    creation_date: seconds(answer.createdAt),
    answer_id: answer.id,
    question_id: answer.questionId,
    content_license: 'CC BY-SA 4.0',
    body: answer.body,
  };
}

export function stackOverflowComment(comment: { id: number; postId: number; body: string; createdAt: Date; owner?: Item<StackExchangeOwner> }): Post<StackExchangeComment> {
  return {
    owner: comment.owner ?? stackExchangeUser('Linus', 6161),
    edited: false,
    score: 0,
    creation_date: seconds(comment.createdAt),
    post_id: comment.postId,
    comment_id: comment.id,
    content_license: 'CC BY-SA 4.0',
    body: comment.body,
  };
}

export interface FakeStackOverflowFixtures {
  questions?: Question[];
  answers?: Post<StackExchangeAnswer>[];
  comments?: Post<StackExchangeComment>[];
  /** Quota left before the first request; default 300 (or 10,000 with a key). */
  quotaRemaining?: number;
}

export interface FakeStackOverflow extends FakeUpstream {
  /** Put `backoff: seconds` on the next successful response, as the API does under load. */
  backoffNext(seconds: number): void;
}

const apiError = (id: number, name: string, message: string) => ({ status: 400, body: { error_id: id, error_message: message, error_name: name } });

/**
 * The Stack Exchange API 2.3 for `site=stackoverflow`: `search/advanced`,
 * `questions/{ids}/answers` and `posts/{ids}/comments`, with its wrapper,
 * quota accounting, `backoff` and `filter=withbody` (bodies only when asked).
 * A rate-limit fault answers as the API does: 400 `throttle_violation`.
 */
export async function startFakeStackOverflow(fixtures: FakeStackOverflowFixtures, options: FakeServerOptions = {}): Promise<FakeStackOverflow> {
  let quotaRemaining: number | undefined = fixtures.quotaRemaining;
  let nextBackoff: number | null = null;
  const fake = await startFakeServer((request) => {
    if (request.method !== 'GET') return null;
    const { query } = request;
    if (query.get('site') !== 'stackoverflow') return apiError(400, 'bad_parameter', 'site is required');
    const pageSize = Number(query.get('pagesize') ?? 30);
    const page = Number(query.get('page') ?? 1);
    if (!(pageSize >= 0 && pageSize <= 100)) return apiError(400, 'bad_parameter', 'pagesize');
    if (query.get('sort') !== 'creation' || query.get('order') !== 'desc') return apiError(400, 'bad_parameter', 'fake: sort=creation&order=desc expected');
    const quotaMax = query.get('key') ? 10_000 : 300;
    quotaRemaining = (quotaRemaining ?? quotaMax) - 1;
    if (quotaRemaining < 0) return apiError(502, 'throttle_violation', 'too many requests from this IP, more requests available in 79200 seconds');
    const from = Number(query.get('fromdate') ?? 0);
    const withBody = query.get('filter') === 'withbody';
    const wrap = <T extends { creation_date: number; body: string }>(items: T[]) => {
      const found = items.filter((item) => item.creation_date >= from).sort((a, b) => b.creation_date - a.creation_date);
      const backoff = nextBackoff;
      nextBackoff = null;
      return {
        body: {
          items: pageOf(found, page - 1, pageSize).map(({ body, ...item }) => (withBody ? { ...item, body } : item)),
          has_more: page * pageSize < found.length,
          ...(backoff ? { backoff } : {}),
          quota_max: quotaMax,
          quota_remaining: quotaRemaining,
        },
      };
    };
    if (request.path === '/2.3/search/advanced') {
      const q = query.get('q') ?? '';
      return wrap((fixtures.questions ?? []).filter((question) => matchesSearch(`${question.title} ${question.body}`, q)));
    }
    const answersPath = request.path.match(/^\/2\.3\/questions\/([\d;]+)\/answers$/);
    if (answersPath) {
      const ids = answersPath[1].split(';').map(Number);
      return wrap((fixtures.answers ?? []).filter((answer) => ids.includes(answer.question_id)));
    }
    const commentsPath = request.path.match(/^\/2\.3\/posts\/([\d;]+)\/comments$/);
    if (commentsPath) {
      const ids = commentsPath[1].split(';').map(Number);
      if (ids.length > 100) return apiError(400, 'bad_parameter', 'ids: at most 100');
      return wrap((fixtures.comments ?? []).filter((comment) => ids.includes(comment.post_id)));
    }
    return apiError(404, 'no_method', 'no method found with this name');
  }, {
    rateLimitResponse: (retryAfterSeconds) => apiError(502, 'throttle_violation', `too many requests from this IP, more requests available in ${retryAfterSeconds} seconds`),
    ...options,
  });
  return { ...fake, backoffNext: (secondsToWait) => void (nextBackoff = secondsToWait) };
}
