import 'reflect-metadata';
import { Arg, Ctx, Directive, Field, ID, InputType, Mutation, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import { z } from 'zod';
import { notFound } from '../domain-error.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { timestampInput } from '../storable-instant.ts';
import { parseInput } from '../validate-input.ts';
import { forgetApiKeyInProcess } from './api-key-cache.ts';
import { type ApiKeyRow, findApiKey, insertApiKey, listApiKeys, revokeApiKey } from './api-key-store.ts';

export enum ApiKeyScope {
  read = 'read',
  write = 'write',
}
registerEnumType(ApiKeyScope, { name: 'ApiKeyScope', description: '`read` keys may only run queries (GET requests)' });

@ObjectType({ description: 'An API key (spec 2.7). Only a hash of the secret is stored.' })
@Directive('@key(fields: "id")')
export class ApiKey {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'The first characters of the key' }) prefix!: string;
  @Field(() => ApiKeyScope) scope!: ApiKeyScope;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: 'Updated whenever the key authenticates a request, to the second' })
  lastUsedAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'The key stops working at this instant' }) expiresAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'The full secret, present only in the response that creates the key' })
  key!: string | null;
}

@InputType()
export class CreateApiKeyInput {
  @Field(() => String) name!: string;
  @Field(() => ApiKeyScope, { nullable: true, description: 'Default `write`' }) scope?: ApiKeyScope | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601; the key stops working at that instant (one already past makes a key that never works)' }) expiresAt?: string | null;
}

export const createApiKeyInput = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  scope: z.enum(['read', 'write']).nullish().transform((scope) => scope ?? 'write'),
  expiresAt: timestampInput('must be an ISO 8601 timestamp')
    .nullish()
    .transform((value) => (value ? new Date(value) : null)),
});

const toApiKey = (row: ApiKeyRow & { key?: string }): ApiKey => ({ ...row, scope: row.scope as ApiKeyScope, key: row.key ?? null });

/** A key another subgraph names (the key that logged an activity): only the caller's workspace's, revoked ones included. */
export async function resolveApiKeyReference(ref: { id: string }, ctx: SubgraphContext): Promise<ApiKey | null> {
  const row = await findApiKey(ctx.sql, requireAuth(ctx).workspaceId, ref.id);
  return row ? toApiKey(row) : null;
}

@Resolver(() => ApiKey)
export class ApiKeyResolver {
  @Query(() => [ApiKey], { description: "The workspace's live API keys, oldest first" })
  async apiKeys(@Ctx() ctx: SubgraphContext): Promise<ApiKey[]> {
    const auth = requireAuth(ctx);
    return (await listApiKeys(ctx.sql, auth.workspaceId)).map(toApiKey);
  }

  @Mutation(() => ApiKey, { description: 'Creates a key; the response is the only place its secret is shown' })
  async createApiKey(@Arg('input', () => CreateApiKeyInput) input: CreateApiKeyInput, @Ctx() ctx: SubgraphContext): Promise<ApiKey> {
    const auth = requireAuth(ctx);
    const valid = parseInput(createApiKeyInput, input);
    return toApiKey(await insertApiKey(ctx.sql, { workspaceId: auth.workspaceId, ...valid }));
  }

  @Mutation(() => ApiKey, { description: 'Revokes a key at once; it disappears from the list' })
  async revokeApiKey(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<ApiKey> {
    const auth = requireAuth(ctx);
    const row = await revokeApiKey(ctx.sql, auth.workspaceId, id);
    if (!row) throw notFound('API key');
    forgetApiKeyInProcess(row.id);
    return toApiKey(row);
  }
}
