import type { z } from 'zod';
import { UpstreamError } from '../../runtime/upstream-http.ts';

/**
 * A response body checked against the shape a connector relies on, so a
 * changed or broken upstream fails with the field it broke instead of a
 * `TypeError` deep in a mapper.
 */
export function parseUpstreamShape<Schema extends z.ZodType>(platform: string, schema: Schema, body: unknown): z.infer<Schema> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new UpstreamError(platform, `unexpected response: ${issue.path.join('.') || '(body)'}: ${issue.message}`);
}
