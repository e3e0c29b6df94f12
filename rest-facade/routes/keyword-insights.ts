import { z } from 'zod';
import { reviewPlatforms, searchPlatforms } from '../../vocabulary/normalized-post.ts';
import type { GraphQLRoute } from '../route.ts';
import { notFoundResponse, unauthorizedResponse } from '../route-responses.ts';
import { wholeNumberText } from '../query-parameters.ts';
import { keywordSchema } from './keywords.ts';

const count = z.number().int();
const share = z.number().min(0).max(1).nullable();

const matchCounts = {
  matches: count.meta({ description: 'Matches in the window' }),
  relevant: count.meta({ description: 'Scored at or above 40, or marked relevant' }),
  filtered: count.meta({ description: 'Scored under 40; billed like any match' }),
  unscored: count.meta({ description: 'Not scored yet or failed to score; never billed' }),
  noiseShare: share.meta({ description: 'filtered / (relevant + filtered); null with nothing scored' }),
};
const matchCountFields = 'matches relevant filtered unscored noiseShare';

const keywordHealthSchema = z
  .object({
    keyword: z.object({ id: keywordSchema.shape.id, term: z.string(), group: keywordSchema.shape.group }),
    window: z.object({
      from: z.iso.date().meta({ description: 'First day of the window, UTC, inclusive' }),
      to: z.iso.date().meta({ description: 'Today, UTC' }),
      days: count,
    }),
    status: keywordSchema.shape.stats.shape.health.meta({
      description: 'As stats.health, over the window; judged on matches since stats.judgedSince when set',
    }),
    reasons: z.array(z.string()).meta({ description: 'The first line explains the status' }),
    stats: z.object({
      ...matchCounts,
      workspaceShare: share.meta({ description: "Share of the workspace's matches in the window; null when the workspace matched nothing" }),
      judgedSince: z.iso.datetime().nullable().meta({
        description: 'When the keyword last changed matching rules, platforms or context (or was unmuted), inside the window',
      }),
      byPlatform: z
        .array(z.object({ platform: z.enum([...searchPlatforms, ...reviewPlatforms, 'rss']), ...matchCounts }))
        .meta({ description: 'Platforms with matches in the window, most matches first' }),
    }),
  })
  .meta({ id: 'KeywordHealth' });

const keywordSuggestionSchema = z
  .object({
    type: z.enum(['excluded_terms', 'excluded_authors', 'required_terms', 'platforms', 'context']),
    values: z.array(z.string()).meta({ description: 'What it adds, drops or writes' }),
    why: z.string().meta({ description: 'Reason and measured effect' }),
    patch: z.record(z.string(), z.unknown()).meta({
      description: 'A body for PATCH /v1/keywords/{id}, to send as is; a list in it holds the whole new list, current entries kept',
    }),
    effect: z
      .object({
        noiseRemoved: count,
        relevantRemoved: count,
        centsSaved: count.meta({ description: 'The noise removed at the mention price, rounded once' }),
        sample: z.object({ noiseRemoved: count, noise: count, relevantRemoved: count, relevant: count }),
        exact: z.boolean().meta({ description: 'Measured on every scored match of the last 30 days, not scaled from the newest' }),
      })
      .nullable()
      .meta({ description: 'What the patch would have removed among the scored matches of the last 30 days; null for a context suggestion' }),
    source: z.enum(['rules', 'ai']).meta({
      description: '`rules`: computed from the matches; `ai`: written by the language model of EARSHOT_CLASSIFIER_URL, its effect measured the same way',
    }),
  })
  .meta({ id: 'KeywordSuggestion' });


const windowDays = wholeNumberText(1, 90, 'must be a whole number 1 to 90');

/** What the service measured about a keyword: its health (spec 2.5) and suggested rule changes (2.6). */
export const keywordInsightRoutes: GraphQLRoute[] = [
  {
    method: 'GET',
    path: '/v1/keywords/{id}/health',
    operationId: 'getKeywordHealth',
    summary: "A keyword's health status, the reasons for it and its match counts over the last `days` days",
    tag: 'Keywords',
    // The spec names the parameter only as "window in days": both words are taken.
    query: z
      .object({
        days: windowDays.optional().meta({ description: 'Window in days, today included, 1 to 90 (default 30)' }),
        window: windowDays.optional().meta({ description: 'The same as `days`, by the name the interface specification gives it' }),
      })
      .refine((query) => query.days === undefined || query.window === undefined || query.days === query.window, {
        message: 'days and window name the same window; send one',
        path: ['window'],
      }),
    responses: {
      200: { description: 'The health report', schema: keywordHealthSchema },
      400: { description: 'Bad `days` or `window`, both sent and different, or an unknown query parameter (`validation_error`, with `field`)' },
      401: unauthorizedResponse,
      404: notFoundResponse('keyword'),
    },
    operation: `query KeywordHealth($id: ID!, $days: Int) {
      keywordHealth(id: $id, days: $days) {
        keyword { id term group { id name externalId isDefault } }
        window { from to days }
        status reasons
        stats { ${matchCountFields} workspaceShare judgedSince byPlatform { platform ${matchCountFields} } }
      }
    }`,
    variables: ({ params, query }) => ({ id: params.id, days: query.days ?? query.window ?? null }),
    result: (data) => ({ status: 200, body: data.keywordHealth }),
  },
  {
    method: 'GET',
    path: '/v1/keywords/{id}/suggestions',
    operationId: 'listKeywordSuggestions',
    summary:
      "Changes that would remove mostly noise, measured on the keyword's scored matches of the last 30 days: excluded terms and authors, terms to require, platforms to drop (the largest effect first) and a context sentence; then, when a language model is configured, its own suggestions (`source: ai`)",
    tag: 'Keywords',
    responses: {
      200: {
        description: 'At most 10 computed suggestions (`rules`), then at most 5 of the language model (`ai`); a failing model leaves the computed ones',
        schema: z.object({ data: z.array(keywordSuggestionSchema) }).meta({ id: 'KeywordSuggestionList' }),
      },
      401: unauthorizedResponse,
      404: notFoundResponse('keyword'),
    },
    operation: `query KeywordSuggestions($id: ID!) {
      keywordSuggestions(id: $id) {
        type values why patch source
        effect { noiseRemoved relevantRemoved centsSaved exact sample { noiseRemoved noise relevantRemoved relevant } }
      }
    }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => ({ status: 200, body: { data: data.keywordSuggestions } }),
  },
];
