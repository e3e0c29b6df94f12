import { z } from 'zod';

/**
 * The language model Earshot may use (operating contract): an
 * OpenAI-compatible chat-completions endpoint at `EARSHOT_CLASSIFIER_URL`
 * (with `EARSHOT_CLASSIFIER_KEY`, `EARSHOT_CLASSIFIER_MODEL`). The
 * classifier scores mentions with it and the keyword suggestions ask it for
 * advice; both speak through `requestStructuredAnswer`.
 */
export interface ChatCompletionSettings {
  /** Base address of the API, e.g. `https://api.openai.com/v1` (`/chat/completions` is appended), or the endpoint itself. */
  baseUrl: string;
  apiKey: string | null;
  model: string;
}

export const defaultChatModel = 'gpt-4o-mini';

/** The configured endpoint, or null when none is (the built-in classifier, rule suggestions only). */
export function chatCompletionSettings(env: Record<string, string | undefined>): ChatCompletionSettings | null {
  const baseUrl = env.EARSHOT_CLASSIFIER_URL?.trim();
  if (!baseUrl) return null;
  return { baseUrl, apiKey: env.EARSHOT_CLASSIFIER_KEY?.trim() || null, model: env.EARSHOT_CLASSIFIER_MODEL?.trim() || defaultChatModel };
}

export interface StructuredRequest {
  /** The response format's name. */
  schemaName: string;
  /** A JSON schema in the subset strict structured outputs accept: every property required, no additional properties. */
  schema: Record<string, unknown>;
  messages: { role: 'system' | 'user'; content: string }[];
  timeoutMs: number;
}

/** The assistant message's text (JSON by the schema, still to be validated by the caller), or why there is none. */
export type StructuredAnswer = { ok: true; content: string } | { ok: false; error: string };

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional(), refusal: z.string().nullable().optional() }) })).min(1),
});

/**
 * Where the completions are posted, tried in order. `EARSHOT_CLASSIFIER_URL`
 * is read as an OpenAI client reads its base URL (`…/v1`, the path
 * appended), and as the endpoint itself when it names one; a bare origin
 * (`http://host:port`) also tries `/v1/chat/completions`, where most
 * OpenAI-compatible servers answer, when `/chat/completions` is not found.
 */
export function completionEndpoints(baseUrl: string): string[] {
  const trimmed = baseUrl.replace(/\/+$/u, '');
  if (/\/chat\/completions$/u.test(trimmed)) return [trimmed];
  const bareOrigin = new URL(trimmed).pathname === '/';
  return [`${trimmed}/chat/completions`, ...(bareOrigin ? [`${trimmed}/v1/chat/completions`] : [])];
}

/** The endpoint each base address was last answered at, so a bare origin's 404 is met once, not on every batch. */
const answeringEndpoints = new Map<string, string>();

async function postCompletion(settings: ChatCompletionSettings, init: RequestInit): Promise<Response> {
  const known = answeringEndpoints.get(settings.baseUrl);
  const endpoints = known ? [known] : completionEndpoints(settings.baseUrl);
  for (const [index, endpoint] of endpoints.entries()) {
    const response = await fetch(endpoint, init);
    if (response.status === 404 && index < endpoints.length - 1) {
      await response.body?.cancel();
      continue;
    }
    if (response.ok) answeringEndpoints.set(settings.baseUrl, endpoint);
    return response;
  }
  throw new Error('no chat-completions endpoint to try');
}

/**
 * One chat-completions request with a strict JSON-schema response format,
 * at temperature 0. Every way it can fail (unreachable, time-out, an HTTP
 * error, a body that is no chat completion, a refusal, an empty answer)
 * comes back as `ok: false` with a reason, never as a throw: callers decide
 * what a failure means for them.
 */
export async function requestStructuredAnswer(settings: ChatCompletionSettings, request: StructuredRequest): Promise<StructuredAnswer> {
  let response: Response;
  let body: string;
  try {
    response = await postCompletion(settings, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
      body: JSON.stringify({
        model: settings.model,
        temperature: 0,
        messages: request.messages,
        response_format: { type: 'json_schema', json_schema: { name: request.schemaName, strict: true, schema: request.schema } },
      }),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    body = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return {
      ok: false,
      error: timedOut ? `classifier timed out after ${request.timeoutMs} ms` : `classifier unreachable: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (!response.ok) return { ok: false, error: `classifier answered HTTP ${response.status}` };
  let completion: z.infer<typeof completionSchema>;
  try {
    completion = completionSchema.parse(JSON.parse(body));
  } catch {
    return { ok: false, error: 'classifier response is not a chat completion' };
  }
  const message = completion.choices[0].message;
  if (message.refusal) return { ok: false, error: `classifier refused: ${message.refusal}` };
  if (!message.content) return { ok: false, error: 'classifier answer is empty' };
  return { ok: true, content: withoutCodeFence(message.content) };
}

/**
 * The JSON of an answer a server wrapped in a Markdown code fence: OpenAI-compatible servers that ignore
 * `response_format` (several local ones do) let the model write ```json … ``` around it.
 */
function withoutCodeFence(content: string): string {
  return /^\s*```[a-z]*\s*\n([\s\S]*?)\n\s*```\s*$/i.exec(content)?.[1] ?? content;
}
