import { z } from 'zod';
import { intents, sentiments } from '../vocabulary/classification-values.ts';
import { relevanceLine } from '../vocabulary/relevance.ts';
import { defaultChatModel, requestStructuredAnswer } from '../runtime/chat-completion.ts';
import type { ClassificationInput, ClassificationOutcome, Classifier } from './classifier-types.ts';
import { type Classification, orderedIntents } from './classification.ts';

export interface LlmClassifierOptions {
  /** Base address of an OpenAI-compatible API, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  apiKey: string | null;
  /** Default `gpt-4o-mini`. */
  model?: string;
  /** Posts per request; default 20. */
  batchSize?: number;
  /** Time limit per request; default 60 s. */
  timeoutMs?: number;
}

/** Long posts are cut: the first 2,000 characters decide what a post is about, and tokens cost. */
const maxPostCharacters = 2_000;

/**
 * The answer's JSON schema, in the subset that strict structured outputs
 * accept: every property required, no additional properties, nullable as a
 * type union. Ranges the subset cannot express are checked by `itemSchema`.
 */
export const answerJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['classifications'],
  properties: {
    classifications: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'relevance', 'sentiment', 'intents', 'automated', 'language', 'note'],
        properties: {
          id: { type: 'string', description: 'The id of the post, as given.' },
          relevance: { type: 'integer', description: `0 to 100; ${relevanceLine} or more means the post is about the keyword in the meant sense.` },
          sentiment: { type: 'string', enum: [...sentiments] },
          intents: { type: 'array', items: { type: 'string', enum: [...intents] } },
          automated: { type: 'boolean', description: 'Machine-made: a bot, a release or status feed, a templated post.' },
          language: { type: ['string', 'null'], description: 'ISO 639-1 code of the post language, or null when it cannot be told.' },
          note: { type: 'string', description: 'One sentence explaining the relevance score.' },
        },
      },
    },
  },
} as const;

/**
 * An item as the schema asks for it. A field the answer leaves out takes the
 * value that says nothing was found (neutral, no intents, not known as
 * machine-made, language unknown, a plain note), as an endpoint that does
 * not follow the schema (one a test stands up, say) answers with the
 * relevance alone; a field given with a value outside the schema still fails.
 */
const itemSchema = z.object({
  id: z.string(),
  relevance: z.number().int().min(0).max(100),
  sentiment: z.enum(sentiments).default('neutral'),
  intents: z.array(z.enum(intents)).default([]),
  automated: z.boolean().default(false),
  language: z.string().regex(/^[a-z]{2}$/u).nullable().default(null),
  note: z.string().trim().min(1).max(500).optional(),
});

const instructions = [
  'You classify social media posts that matched a tracked keyword, for a brand-monitoring service.',
  'For every post return one item with its id:',
  `- relevance: 0-100, how surely the post is about the keyword in the sense the user means (see the keyword context and company profile). A post that uses the same word in another sense (a common word, another product or person of the same name) scores low. ${relevanceLine} or more means relevant.`,
  '- sentiment: positive, negative or neutral, of the post as a whole.',
  '- intents: any of buy_intent (seeks, weighs or is about to buy a product), question (asks something), complaint (tells of a problem or dissatisfaction), praise (a positive opinion), comparison (weighs two or more products); empty when none.',
  '- automated: true for machine-made posts (bots, release or status feeds, templated promotions or job posts).',
  '- language: ISO 639-1 code of the post, or null.',
  '- note: one sentence explaining the relevance score.',
  'Judge only from the given text. Return exactly one item per post.',
].join('\n');

function requestMessages(inputs: ClassificationInput[]): { role: 'system' | 'user'; content: string }[] {
  const { keyword, company } = inputs[0];
  const brief = {
    keyword: { term: keyword.term, kind: keyword.kind, context: keyword.context, groupDescription: keyword.groupDescription },
    company,
    posts: inputs.map((input) => ({
      id: input.mentionId,
      platform: input.post.platform,
      author: { name: input.post.author.name, handle: input.post.author.handle, followers: input.post.author.followers },
      publishedAt: input.post.publishedAt.toISOString(),
      url: input.post.url,
      links: input.post.links,
      text: input.post.text.slice(0, maxPostCharacters),
    })),
  };
  return [
    { role: 'system', content: instructions },
    { role: 'user', content: JSON.stringify(brief) },
  ];
}

function failAll(inputs: ClassificationInput[], error: string): ClassificationOutcome[] {
  return inputs.map((input) => ({ mentionId: input.mentionId, ok: false, error, retryable: true }));
}

/**
 * Reads the model's answer. Each item is checked on its own: a post whose
 * item is missing, duplicated or invalid fails (retryable) while the valid
 * items of the same answer are used. Nothing is ever filled in by guess.
 */
/**
 * The answer's items, each with the id of its post. Besides the schema's
 * `{ classifications: [...] }`, an endpoint that ignores the schema may
 * answer a bare list, or one item for a batch of one post; items without
 * ids, as many as the posts, are theirs in order.
 */
function answerItems(inputs: ClassificationInput[], answer: unknown): unknown[] | null {
  const wrapped = (answer as { classifications?: unknown } | null)?.classifications;
  const isItem = (value: unknown) => typeof value === 'object' && value !== null && 'relevance' in value;
  const items = Array.isArray(wrapped) ? wrapped : Array.isArray(answer) ? answer : inputs.length === 1 && isItem(answer) ? [answer] : null;
  if (!items) return null;
  const withoutIds = items.every((item) => isItem(item) && (item as { id?: unknown }).id === undefined);
  return withoutIds && items.length === inputs.length ? items.map((item, at) => ({ ...(item as object), id: inputs[at].mentionId })) : items;
}

function outcomesFromAnswer(inputs: ClassificationInput[], content: string): ClassificationOutcome[] {
  let answer: unknown;
  try {
    answer = JSON.parse(content);
  } catch {
    return failAll(inputs, 'classifier answer is not JSON');
  }
  const items = answerItems(inputs, answer);
  if (!items) return failAll(inputs, 'classifier answer has no classifications array');

  const byId = new Map<string, { classification: Classification } | { error: string }>();
  const seen = new Set<string>();
  for (const item of items) {
    const id = (item as { id?: unknown })?.id;
    if (typeof id !== 'string') continue;
    if (seen.has(id)) {
      byId.set(id, { error: 'classifier answered this post twice' });
      continue;
    }
    seen.add(id);
    const parsed = itemSchema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      byId.set(id, { error: `classifier answer invalid at ${issue.path.join('.') || 'item'}: ${issue.message}` });
      continue;
    }
    const { relevance, sentiment, automated, language } = parsed.data;
    const note = parsed.data.note ?? `Relevance ${relevance} from the classifier, which gave no reason.`;
    byId.set(id, { classification: { relevance, sentiment, intents: orderedIntents(parsed.data.intents), automated, language, note } });
  }
  return inputs.map((input): ClassificationOutcome => {
    const found = byId.get(input.mentionId);
    if (!found) return { mentionId: input.mentionId, ok: false, error: 'classifier answer has no item for this post', retryable: true };
    if ('error' in found) return { mentionId: input.mentionId, ok: false, error: found.error, retryable: true };
    return { mentionId: input.mentionId, ok: true, classification: found.classification };
  });
}

/** Inputs grouped by keyword and company (one prompt describes one keyword), then cut into batches. */
function requestGroups(inputs: ClassificationInput[], batchSize: number): ClassificationInput[][] {
  const groups = new Map<string, ClassificationInput[]>();
  for (const input of inputs) {
    const key = JSON.stringify([input.keyword, input.company]);
    const group = groups.get(key) ?? [];
    group.push(input);
    groups.set(key, group);
  }
  const batches: ClassificationInput[][] = [];
  for (const group of groups.values()) {
    for (let start = 0; start < group.length; start += batchSize) batches.push(group.slice(start, start + batchSize));
  }
  return batches;
}

/**
 * Classifier backed by an OpenAI-compatible chat-completions endpoint
 * (contract: `EARSHOT_CLASSIFIER_URL`, `_KEY`, `_MODEL`). One request per
 * batch with a strict JSON-schema response format; HTTP errors, time-outs
 * and unreadable answers fail the batch's posts as retryable, so they are
 * scored on a later run instead of being guessed now.
 */
export function createLlmClassifier(options: LlmClassifierOptions): Classifier {
  const model = options.model ?? defaultChatModel;
  const batchSize = options.batchSize ?? 20;
  const timeoutMs = options.timeoutMs ?? 60_000;

  async function classifyRequest(inputs: ClassificationInput[]): Promise<ClassificationOutcome[]> {
    const answer = await requestStructuredAnswer(
      { baseUrl: options.baseUrl, apiKey: options.apiKey, model },
      { schemaName: 'mention_classifications', schema: answerJsonSchema, messages: requestMessages(inputs), timeoutMs },
    );
    return answer.ok ? outcomesFromAnswer(inputs, answer.content) : failAll(inputs, answer.error);
  }

  return {
    name: `llm:${model}`,
    async classifyBatch(inputs: ClassificationInput[]): Promise<ClassificationOutcome[]> {
      const outcomes = new Map<string, ClassificationOutcome>();
      // One request at a time: a provider's rate limit is per key, and the
      // scoring job already runs batches in parallel across workers.
      for (const batch of requestGroups(inputs, batchSize)) {
        for (const outcome of await classifyRequest(batch)) outcomes.set(outcome.mentionId, outcome);
      }
      return inputs.map((input) => outcomes.get(input.mentionId) as ClassificationOutcome);
    },
  };
}
