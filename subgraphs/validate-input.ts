import type { z } from 'zod';
import { domainError } from './domain-error.ts';

/**
 * Parses input against its schema; the first problem becomes one
 * `validation_error` naming the field (`matching.requiredTerms.3`), so REST
 * and GraphQL callers get the same answer.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.map(String).join('.');
  throw domainError('validation_error', field ? `${field}: ${issue.message}` : issue.message, { field: field || null });
}
