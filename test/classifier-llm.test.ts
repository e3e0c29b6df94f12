import { afterEach, describe, expect, it } from 'vitest';
import type { ClassificationInput } from '../classifier/classifier-types.ts';
import { createClassifier } from '../classifier/classifier.ts';
import { answerJsonSchema, createLlmClassifier } from '../classifier/llm-classifier.ts';
import { type ChatCompletionRequest, completion, startFakeChatCompletions } from './fake-upstreams/chat-completions.ts';
import type { FakeUpstream } from './fake-upstreams/fake-server.ts';

const apiKey = 'sk-test-classifier';

function input(mentionId: string, text: string): ClassificationInput {
  return {
    mentionId,
    post: {
      platform: 'reddit',
      url: `https://reddit.example/${mentionId}`,
      text,
      publishedAt: new Date('2025-03-01T10:00:00Z'),
      links: [],
      author: { platformId: 'u1', name: 'Dana', handle: 'dana', url: 'https://reddit.example/u/dana', avatarUrl: null, followers: 120 },
    },
    keyword: { id: 'kw_notion', term: 'Notion', kind: 'competitor', context: 'Notion, the docs and wiki app', groupDescription: null },
    company: { name: 'Tablo', description: 'Docs and wiki for small teams', website: 'https://tablo.app', competitors: ['Notion'], guidelines: null },
  };
}

const item = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  relevance: 82,
  sentiment: 'negative',
  intents: ['complaint', 'buy_intent'],
  automated: false,
  language: 'en',
  note: 'Talks about leaving Notion, the docs app.',
  ...overrides,
});

/** The posts the classifier sent, read back from its user message. */
function postsIn(request: ChatCompletionRequest): { id: string; text: string }[] {
  const user = request.messages.find((message) => message.role === 'user');
  return (JSON.parse(user?.content ?? '{}') as { posts: { id: string; text: string }[] }).posts;
}

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function fakeAnswering(answer: (request: ChatCompletionRequest) => ReturnType<typeof completion>, slowMs?: number) {
  const fake = await startFakeChatCompletions({ apiKey, answer, slowMs });
  fakes.push(fake);
  return fake;
}

describe('LLM classifier', () => {
  it('sends one chat-completions request per batch with the model, the key, a strict JSON schema and the posts', async () => {
    const fake = await fakeAnswering((request) =>
      completion(JSON.stringify({ classifications: postsIn(request).map((post) => item(post.id)) })),
    );
    const classifier = createLlmClassifier({ baseUrl: fake.baseUrl, apiKey, model: 'gpt-4o-mini' });
    const inputs = [input('mm_1', 'Notion is so slow I am moving our wiki off it'), input('mm_2', 'Any Notion alternative for offline use?')];
    const outcomes = await classifier.classifyBatch(inputs);

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${apiKey}`);
    const body = JSON.parse(request.body) as ChatCompletionRequest;
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'mention_classifications', strict: true, schema: answerJsonSchema } });
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(postsIn(body)).toEqual([
      expect.objectContaining({ id: 'mm_1', text: 'Notion is so slow I am moving our wiki off it' }),
      expect.objectContaining({ id: 'mm_2', text: 'Any Notion alternative for offline use?' }),
    ]);
    expect(body.messages[1].content).toContain('"term":"Notion"');
    expect(outcomes).toEqual(
      inputs.map((sent) => ({
        mentionId: sent.mentionId,
        ok: true,
        classification: {
          relevance: 82,
          sentiment: 'negative',
          intents: ['buy_intent', 'complaint'],
          automated: false,
          language: 'en',
          note: 'Talks about leaving Notion, the docs app.',
        },
      })),
    );
  });

  it.each([
    ['the endpoint itself', (url: string) => `${url}/v1/chat/completions`, ['/v1/chat/completions', '/v1/chat/completions']],
    ['a bare origin, which finds /v1 once', (url: string) => url, ['/chat/completions', '/v1/chat/completions', '/v1/chat/completions']],
  ])('takes EARSHOT_CLASSIFIER_URL as %s', async (_case, configured, paths) => {
    const fake = await fakeAnswering((request) => completion(JSON.stringify({ classifications: postsIn(request).map((post) => item(post.id)) })));
    const classifier = createLlmClassifier({ baseUrl: configured(fake.url), apiKey });
    for (const id of ['mm_1', 'mm_2']) expect(await classifier.classifyBatch([input(id, 'Notion')])).toEqual([expect.objectContaining({ mentionId: id, ok: true })]);
    expect(fake.requests.map((request) => request.path)).toEqual(paths);
  });

  it('cuts large inputs into batches and keeps the input order', async () => {
    const fake = await fakeAnswering((request) =>
      completion(JSON.stringify({ classifications: [...postsIn(request)].reverse().map((post) => item(post.id, { relevance: Number(post.id.slice(3)) })) })),
    );
    const classifier = createLlmClassifier({ baseUrl: fake.baseUrl, apiKey, batchSize: 20 });
    const inputs = Array.from({ length: 25 }, (_, index) => input(`mm_${index}`, `post number ${index} about Notion`));
    const outcomes = await classifier.classifyBatch(inputs);

    expect(fake.requests.map((request) => postsIn(JSON.parse(request.body)).length)).toEqual([20, 5]);
    expect(outcomes.map((outcome) => (outcome.ok ? outcome.classification.relevance : null))).toEqual(inputs.map((_, index) => index));
  });

  it('fails an invalid or missing item as retryable and keeps the valid ones, never filling in a guess', async () => {
    const fake = await fakeAnswering(() =>
      completion(JSON.stringify({
        classifications: [
          item('mm_1'),
          item('mm_2', { relevance: 140 }),
          item('mm_3', { sentiment: 'furious' }),
          item('mm_5', { language: 'English' }),
        ],
      })),
    );
    const classifier = createLlmClassifier({ baseUrl: fake.baseUrl, apiKey });
    const outcomes = await classifier.classifyBatch(['mm_1', 'mm_2', 'mm_3', 'mm_4', 'mm_5'].map((id) => input(id, `text of ${id} mentioning Notion`)));

    expect(outcomes[0]).toMatchObject({ mentionId: 'mm_1', ok: true });
    expect(outcomes.slice(1)).toEqual([
      { mentionId: 'mm_2', ok: false, retryable: true, error: expect.stringContaining('relevance') },
      { mentionId: 'mm_3', ok: false, retryable: true, error: expect.stringContaining('sentiment') },
      { mentionId: 'mm_4', ok: false, retryable: true, error: 'classifier answer has no item for this post' },
      { mentionId: 'mm_5', ok: false, retryable: true, error: expect.stringContaining('language') },
    ]);
  });

  it.each([
    ['an answer that is not JSON', () => completion('Sure! Here are the classifications: …'), 'classifier answer is not JSON'],
    ['an empty answer', () => completion(null), 'classifier answer is empty'],
    ['a refusal', () => completion(null, { refusal: 'I cannot help with that.' }), 'classifier refused: I cannot help with that.'],
    ['a body that is no chat completion', () => ({ body: { result: 'ok' } }), 'classifier response is not a chat completion'],
    ['an HTTP error', () => ({ status: 503, body: { error: { message: 'overloaded' } } }), 'classifier answered HTTP 503'],
  ])('fails every post as retryable on %s', async (_case, answer, error) => {
    const fake = await fakeAnswering(answer);
    const outcomes = await createLlmClassifier({ baseUrl: fake.baseUrl, apiKey }).classifyBatch([input('mm_1', 'Notion again'), input('mm_2', 'Notion once more')]);
    expect(outcomes).toEqual([
      { mentionId: 'mm_1', ok: false, retryable: true, error },
      { mentionId: 'mm_2', ok: false, retryable: true, error },
    ]);
  });

  // An endpoint that ignores the schema (the one a test stands up, say) answered one object or a bare list, and every post stayed unscored.
  it.each([
    ['one object for a one-post batch', 1, () => ({ relevance: 91 })],
    ['a bare list in the posts\' order, without ids', 2, () => [{ relevance: 91 }, { relevance: 12, sentiment: 'negative' }]],
    ['a bare list with ids', 2, (posts: { id: string }[]) => posts.map((post, at) => ({ id: post.id, relevance: at === 0 ? 91 : 12, sentiment: at === 0 ? 'neutral' : 'negative' }))],
  ])('reads %s, a field left out taking the value that says nothing was found', async (_case, count, answer) => {
    const fake = await fakeAnswering((request) => completion(JSON.stringify(answer(postsIn(request)))));
    const posts = [input('mm_1', 'Notion is great'), input('mm_2', 'Notion is down again')].slice(0, count);
    const outcomes = await createLlmClassifier({ baseUrl: fake.baseUrl, apiKey }).classifyBatch(posts);
    const scored = { relevance: 91, sentiment: 'neutral', intents: [], automated: false, language: null, note: 'Relevance 91 from the classifier, which gave no reason.' };
    expect(outcomes).toEqual([
      { mentionId: 'mm_1', ok: true, classification: scored },
      ...(count === 2 ? [{ mentionId: 'mm_2', ok: true, classification: { ...scored, relevance: 12, sentiment: 'negative', note: 'Relevance 12 from the classifier, which gave no reason.' } }] : []),
    ]);
  });

  it('does not read a lone object as the answer for more than one post', async () => {
    const fake = await fakeAnswering(() => completion(JSON.stringify({ relevance: 91 })));
    const outcomes = await createLlmClassifier({ baseUrl: fake.baseUrl, apiKey }).classifyBatch([input('mm_1', 'Notion'), input('mm_2', 'Notion too')]);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([false, false]);
  });

  it('reads an answer a server that ignores response_format wrapped in a Markdown code fence', async () => {
    const fake = await fakeAnswering((request) => completion(`\`\`\`json\n${JSON.stringify({ classifications: postsIn(request).map((post) => item(post.id)) }, null, 2)}\n\`\`\``));
    const outcomes = await createLlmClassifier({ baseUrl: fake.baseUrl, apiKey }).classifyBatch([input('mm_1', 'Notion is slow today')]);
    expect(outcomes).toMatchObject([{ mentionId: 'mm_1', ok: true, classification: { relevance: 82, sentiment: 'negative' } }]);
  });

  it('fails every post as retryable when the key is refused', async () => {
    const fake = await fakeAnswering(() => completion('{}'));
    const outcomes = await createLlmClassifier({ baseUrl: fake.baseUrl, apiKey: 'sk-wrong' }).classifyBatch([input('mm_1', 'Notion')]);
    expect(outcomes).toEqual([{ mentionId: 'mm_1', ok: false, retryable: true, error: 'classifier answered HTTP 401' }]);
  });

  it('times out a slow endpoint and fails its posts as retryable', async () => {
    const fake = await fakeAnswering((request) => completion(JSON.stringify({ classifications: postsIn(request).map((post) => item(post.id)) })), 2_000);
    fake.failNext('slow');
    const started = Date.now();
    const outcomes = await createLlmClassifier({ baseUrl: fake.baseUrl, apiKey, timeoutMs: 200 }).classifyBatch([input('mm_1', 'Notion is slow today')]);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(outcomes).toEqual([{ mentionId: 'mm_1', ok: false, retryable: true, error: 'classifier timed out after 200 ms' }]);
  });
});

describe('createClassifier', () => {
  it('picks the LLM classifier when EARSHOT_CLASSIFIER_URL is set, with its model', async () => {
    const fake = await fakeAnswering((request) => completion(JSON.stringify({ classifications: postsIn(request).map((post) => item(post.id)) })));
    const classifier = createClassifier({ EARSHOT_CLASSIFIER_URL: fake.baseUrl, EARSHOT_CLASSIFIER_KEY: apiKey, EARSHOT_CLASSIFIER_MODEL: 'local-model' });
    expect(classifier.name).toBe('llm:local-model');
    const [outcome] = await classifier.classifyBatch([input('mm_1', 'Notion')]);
    expect(outcome.ok).toBe(true);
    expect(JSON.parse(fake.requests[0].body).model).toBe('local-model');
  });

  it('picks the built-in classifier otherwise', () => {
    expect(createClassifier({}).name).toBe('built-in');
    expect(createClassifier({ EARSHOT_CLASSIFIER_URL: '  ' }).name).toBe('built-in');
  });
});
