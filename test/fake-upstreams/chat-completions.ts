import { type FakeResponse, type FakeUpstream, type RecordedRequest, startFakeServer } from './fake-server.ts';

export interface ChatCompletionRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format: { type: string; json_schema: { name: string; strict: boolean; schema: Record<string, unknown> } };
}

/**
 * An OpenAI-compatible chat-completions endpoint on a local port, under
 * `/v1`. It refuses (400, 401, 404 as the real API does) a request that is
 * not a POST to `/v1/chat/completions` with the bearer key, a model, messages
 * and a strict JSON-schema response format; `answer` serves the rest.
 */
export async function startFakeChatCompletions(options: {
  apiKey: string;
  /** May wait: a test holds an answer back while it changes something, then lets the caller go on. */
  answer: (request: ChatCompletionRequest) => FakeResponse | Promise<FakeResponse>;
  slowMs?: number;
}): Promise<FakeUpstream & { baseUrl: string }> {
  const refuse = (status: number, message: string): FakeResponse => ({ status, body: { error: { message, type: 'invalid_request_error' } } });
  const route = (request: RecordedRequest): FakeResponse | Promise<FakeResponse> | null => {
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions') return null;
    if (request.headers.authorization !== `Bearer ${options.apiKey}`) return refuse(401, 'Incorrect API key provided');
    let body: ChatCompletionRequest;
    try {
      body = JSON.parse(request.body) as ChatCompletionRequest;
    } catch {
      return refuse(400, 'We could not parse the JSON body of your request');
    }
    if (typeof body.model !== 'string' || body.model === '') return refuse(400, 'you must provide a model parameter');
    if (!Array.isArray(body.messages) || body.messages.length === 0 || !body.messages.every((m) => typeof m.role === 'string' && typeof m.content === 'string')) {
      return refuse(400, 'messages must be a non-empty array of role and content');
    }
    const format = body.response_format;
    if (format?.type !== 'json_schema' || format.json_schema?.strict !== true || typeof format.json_schema.schema !== 'object' || !format.json_schema.name) {
      return refuse(400, 'response_format must be a strict json_schema');
    }
    return options.answer(body);
  };
  const fake = await startFakeServer(route, { slowMs: options.slowMs });
  return { ...fake, baseUrl: `${fake.url}/v1` };
}

/** A chat completion whose assistant message is `content`. */
export function completion(content: string | null, extra: { refusal?: string } = {}): FakeResponse {
  return {
    body: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_740_000_000,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: extra.refusal ?? null }, finish_reason: 'stop' }],
    },
  };
}
