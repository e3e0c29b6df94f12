import { z } from 'zod';
import { usageBreakdownInput } from '../subgraphs/billing/index.ts';
import { keywordCreateInput, keywordPatchInput } from '../subgraphs/keywords/index.ts';
import { analyticsBuckets, analyticsDimensions, mentionPatchInput, peopleFilterInput, personActivityInput, personPatchInput } from '../subgraphs/mentions/index.ts';
import { deliveryLogFilter } from '../subgraphs/team/index.ts';
import { platforms } from '../vocabulary/normalized-post.ts';
import { mentionSearchInput, mentionSearchQuery } from './mention-search.ts';

/** What a tool asks of its REST route: the path parameters, the query parameters (JSON values) and the JSON body. */
export interface RouteRequest {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/**
 * An MCP tool: one route of the REST API (by its `operationId`), so it runs
 * that route's GraphQL operation with that route's checks, answers and
 * error codes.
 */
export interface McpTool<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** Reads only: a `read` credential lists and calls nothing else (spec 5.5). */
  readOnly: boolean;
  operationId: string;
  /** The arguments; clients see them as JSON Schema. */
  input: Input;
  request(args: z.input<Input>): RouteRequest;
}

const tool = <Input extends z.ZodObject>(definition: McpTool<Input>) => definition as unknown as McpTool;

const id = (what: string) => z.string().min(1).describe(`The ${what}'s id`);
const none = z.strictObject({});
const byId = (what: string) => z.strictObject({ id: id(what) });
const onlyId = ({ id }: { id: string }) => ({ params: { id } });
const withId = ({ id, ...body }: { id: string }) => ({ params: { id }, body });
const page = (defaultSize: number) => ({
  limit: z.number().int().min(1).max(100).optional().describe(`How many, 1 to 100 (default ${defaultSize})`),
  cursor: z.string().min(1).optional().describe('The nextCursor of the previous answer'),
});

export const mcpTools: McpTool[] = [
  tool({
    name: 'whoami',
    title: 'Who am I',
    description: 'The workspace and credential this connection acts as (API key or OAuth, read or write) and the signed-in user, if any.',
    readOnly: true,
    operationId: 'whoami',
    input: none,
    request: () => ({}),
  }),
  tool({
    name: 'search_mentions',
    title: 'Search mentions',
    description:
      'Mentions: posts on the watched platforms that matched a keyword, newest first, each with its post, author, classification (relevance 0-100, sentiment, intents) and triage. ' +
      'Only relevant ones unless relevant is false. Answers { data, nextCursor }; pass nextCursor back as cursor for more.',
    readOnly: true,
    operationId: 'listMentions',
    input: mentionSearchInput,
    request: (args) => ({ query: mentionSearchQuery(args) }),
  }),
  tool({
    name: 'get_mention',
    title: 'Get a mention',
    description: 'One mention (mm_…) in full: post, author, classification, triage.',
    readOnly: true,
    operationId: 'getMention',
    input: byId('mention'),
    request: onlyId,
  }),
  tool({
    name: 'list_mention_comments',
    title: 'Comments under a mention',
    description: "Comments read in the thread under a mention, newest first (only when its keyword has comments enabled).",
    readOnly: true,
    operationId: 'listMentionComments',
    input: byId('mention'),
    request: onlyId,
  }),
  tool({
    name: 'triage_mention',
    title: 'Triage a mention',
    description: 'Moves a mention to open, done or ignored, or assigns it to a member (null unassigns). Answers the mention after the change.',
    readOnly: false,
    operationId: 'updateMention',
    input: z.strictObject({ id: id('mention'), ...mentionPatchInput.pick({ status: true, assigneeId: true }).shape }),
    request: withId,
  }),
  tool({
    name: 'set_mention_verdict',
    title: 'Give a verdict on a mention',
    description:
      "Corrects the classifier: relevant true or false, and the sentiment. null withdraws a verdict and restores the classifier's value. Verdicts never bill or unbill; " +
      'a mention not classified yet answers classification_pending.',
    readOnly: false,
    operationId: 'updateMention',
    input: z.strictObject({ id: id('mention'), ...mentionPatchInput.pick({ relevant: true, sentiment: true }).shape }),
    request: withId,
  }),
  tool({
    name: 'get_mention_analytics',
    title: 'Mention analytics',
    description:
      'Counts of mentions over time, by sentiment, language, platform, keyword or intent, per UTC hour, day, week (from Monday) or month; every bucket present, empty ones at 0, ' +
      'series largest first with their totals. A corrected sentiment counts as corrected. Relevant mentions unless relevant is false (the rest) or "all". At most 1000 buckets.',
    readOnly: true,
    operationId: 'mentionAnalytics',
    input: z.strictObject({
      by: z.enum(analyticsDimensions).describe('What the series are'),
      bucket: z.enum(analyticsBuckets).optional().describe('Bucket size (default day)'),
      since: z.string().min(1).optional().describe('Published at or after: ISO 8601 or epoch milliseconds; default 24 hours, 30 days, 12 weeks or 12 months before until, after the bucket'),
      until: z.string().min(1).optional().describe('Published at or before: ISO 8601 or epoch milliseconds; default now'),
      keywordIds: z.array(z.string().min(1)).min(1).optional().describe('Only these keywords (ids from list_keywords)'),
      platforms: z.array(z.enum(platforms)).min(1).optional().describe('Only these platforms'),
      relevant: z.union([z.boolean(), z.literal('all')]).optional().describe('true (the default): relevant mentions; false: the rest, unclassified included; "all": every mention'),
    }),
    request: (query) => ({ query }),
  }),
  tool({
    name: 'list_people',
    title: 'List people',
    description:
      'People: the authors of mentions, their accounts on several platforms merged into one person (per_…), newest first, each with accounts, mention counts, ' +
      'last mention and outreach (owner, stage, last contact). Filters combine. Answers { data, nextCursor }.',
    readOnly: true,
    operationId: 'listPeople',
    input: z.strictObject({
      ...peopleFilterInput.shape,
      segmentId: z.string().min(1).optional().describe('A saved people segment whose filter applies beside the others'),
      ...page(50),
    }),
    request: (query) => ({ query }),
  }),
  tool({
    name: 'get_person',
    title: 'Get a person',
    description: 'One person (per_…): accounts on each platform, mention counts, last mention, outreach owner and stage, muting.',
    readOnly: true,
    operationId: 'getPerson',
    input: byId('person'),
    request: onlyId,
  }),
  tool({
    name: 'update_person',
    title: "Change a person's outreach",
    description:
      'Sets the outreach stage (not_contacted, contacted, replied, in_talks, customer, not_a_fit), the owner (a member\'s user id; null: nobody) or muting ' +
      "(a muted person's mentions are never alerted and stay out of lists). Omitted fields stay. Answers the person.",
    readOnly: false,
    operationId: 'updatePerson',
    input: z.strictObject({ id: id('person'), ...personPatchInput.shape }),
    request: withId,
  }),
  tool({
    name: 'list_person_activities',
    title: "A person's outreach log",
    description: 'The contacts logged with a person across all their accounts, latest first. Answers { data, nextCursor }.',
    readOnly: true,
    operationId: 'listPersonActivities',
    input: z.strictObject({ id: id('person'), ...page(50) }),
    request: ({ id, ...query }) => ({ params: { id }, query }),
  }),
  tool({
    name: 'log_person_activity',
    title: 'Log a contact with a person',
    description:
      'Logs an outreach contact (channel, note, when). A person not yet contacted moves to contacted; an unowned person becomes the signed-in user\'s ' +
      '(an API key claims nobody); an owner is never taken away. Answers the activity.',
    readOnly: false,
    operationId: 'logPersonActivity',
    input: z.strictObject({ id: id('person'), ...personActivityInput.shape }),
    request: withId,
  }),
  tool({
    name: 'list_keywords',
    title: 'List keywords',
    description: 'The tracked keywords, oldest first, with their matching rules, platforms, pause flags, cap and stats (mentions, relevant, health, cost). Answers { data, nextCursor }.',
    readOnly: true,
    operationId: 'listKeywords',
    input: z.strictObject({ ...page(50), groupId: z.string().min(1).optional().describe('Only keywords of this group') }),
    request: (args) => ({ query: args }),
  }),
  tool({
    name: 'get_keyword',
    title: 'Get a keyword',
    description: 'One keyword (kw_…) with every field.',
    readOnly: true,
    operationId: 'getKeyword',
    input: byId('keyword'),
    request: onlyId,
  }),
  tool({
    name: 'create_keyword',
    title: 'Track a keyword',
    description:
      'Starts tracking a term (2 to 80 characters; in double quotes for an exact phrase), with a look-back over the last 30 days. Costs $5 a month, charged daily, ' +
      'and $0.008 a matched mention. Optional: kind (brand, competitor, topic), platforms, context for the classifier, matching rules, a cap.',
    readOnly: false,
    operationId: 'createKeyword',
    input: keywordCreateInput,
    request: (body) => ({ body }),
  }),
  tool({
    name: 'update_keyword',
    title: 'Change a keyword',
    description:
      'Changes a keyword: only the fields given change, a list given replaces the whole list, null clears. muted true pauses it. ' +
      'A platform, feed or review source added looks back over the last 30 days; a new term does not. Answers the whole keyword. ' +
      'A patch from get_keyword_suggestions can be applied as is.',
    readOnly: false,
    operationId: 'updateKeyword',
    input: z.strictObject({ id: id('keyword'), ...keywordPatchInput.shape }),
    request: withId,
  }),
  tool({
    name: 'get_keyword_health',
    title: "A keyword's health",
    description: "A keyword's health (healthy, noisy, quiet, capped, paused, new), the reasons, and its match counts over the last days (default 30).",
    readOnly: true,
    operationId: 'getKeywordHealth',
    input: z.strictObject({ id: id('keyword'), days: z.number().int().min(1).max(90).optional().describe('Window in days, 1 to 90 (default 30)') }),
    request: ({ id, ...query }) => ({ params: { id }, query }),
  }),
  tool({
    name: 'get_keyword_suggestions',
    title: 'Suggestions for a keyword',
    description: 'Rule changes that would remove mostly noise, measured on the last 30 days, largest effect first; each carries a patch for update_keyword.',
    readOnly: true,
    operationId: 'listKeywordSuggestions',
    input: byId('keyword'),
    request: onlyId,
  }),
  tool({
    name: 'list_alert_rules',
    title: 'List alert rules',
    description: 'The alert rules: which mentions (filter) go to which channels, instantly or as daily or weekly digests.',
    readOnly: true,
    operationId: 'listAlertRules',
    input: none,
    request: () => ({}),
  }),
  tool({
    name: 'test_alert_rule',
    title: 'Test an alert rule',
    description: "Sends a test event through every channel of the rule now and says, per channel, whether it arrived.",
    readOnly: false,
    operationId: 'testAlertRule',
    input: byId('alert rule'),
    request: onlyId,
  }),
  tool({
    name: 'list_channels',
    title: 'List channels',
    description: 'Where alerts go: webhooks, Slack channels, Telegram chats and e-mail addresses, with delivery stats.',
    readOnly: true,
    operationId: 'listChannels',
    input: none,
    request: () => ({}),
  }),
  tool({
    name: 'list_channel_deliveries',
    title: "A channel's delivery log",
    description:
      'What was sent to a channel, newest first: kind (mention, digest, event), status (pending, delivered, failed), attempts with each answer, the last error, the alert and mention. ' +
      'Answers { data, nextCursor }.',
    readOnly: true,
    operationId: 'listChannelDeliveries',
    input: z.strictObject({ id: id('channel'), ...page(50), ...deliveryLogFilter.shape }),
    request: ({ id, ...query }) => ({ params: { id }, query }),
  }),
  tool({
    name: 'test_channel',
    title: 'Test a channel',
    description: 'Sends a test event to the channel now and says whether it arrived, with the error when it did not.',
    readOnly: false,
    operationId: 'testChannel',
    input: byId('channel'),
    request: onlyId,
  }),
  tool({
    name: 'get_wallet',
    title: 'Wallet',
    description: 'The prepaid wallet in USD cents: balance, pending and effective balance, daily burn, days left, keyword counts, this month\'s costs, auto-recharge.',
    readOnly: true,
    operationId: 'getWallet',
    input: none,
    request: () => ({}),
  }),
  tool({
    name: 'get_usage',
    title: 'Usage',
    description: 'The short form of the wallet: balance, burn, days left, keywords running and paused, matches and comments charged today, month to date (cents).',
    readOnly: true,
    operationId: 'getUsage',
    input: none,
    request: () => ({}),
  }),
  tool({
    name: 'get_usage_breakdown',
    title: 'Cost per keyword',
    description: 'Per-keyword cost rows of a calendar month (keyword days, mentions, comments, cents) and the totals.',
    readOnly: true,
    operationId: 'getUsageBreakdown',
    input: z.strictObject({ month: usageBreakdownInput.shape.month.describe('YYYY-MM; default this month') }),
    request: (query) => ({ query }),
  }),
];
