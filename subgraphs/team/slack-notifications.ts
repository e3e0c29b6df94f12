import 'reflect-metadata';
import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { z } from 'zod';
import { platforms } from '../../vocabulary/normalized-post.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { parseInput } from '../validate-input.ts';
import { requireSlackApp, slackApp, slackNotConnected } from './slack-api.ts';
import { findSlackConnection, saveSlackNotifications, type SlackConnectionRow } from './slack-connection-store.ts';

@ObjectType({ description: 'Where Slack notifications go and which mentions they carry' })
export class SlackNotifications {
  @Field(() => String, { description: 'The Slack channel id (`C…`)' }) channelId!: string;
  @Field(() => String) channelName!: string;
  @Field(() => Int, { nullable: true, description: 'Only mentions scored at least this relevant; null for every relevant one' })
  minRelevance!: number | null;
  @Field(() => [String], { description: 'Platforms to notify about; empty for all' }) sources!: string[];
}

@ObjectType({ description: "The workspace's Slack connection (spec 4.6)" })
export class SlackStatus {
  @Field(() => Boolean, { description: 'Whether this install has a Slack app configured' }) configured!: boolean;
  @Field(() => Boolean, { description: 'Whether the workspace has installed the Slack app' }) connected!: boolean;
  @Field(() => String) teamName!: string;
  @Field(() => SlackNotifications) notifications!: SlackNotifications;
}

@InputType()
export class SlackNotificationsInput {
  @Field(() => String) channelId!: string;
  @Field(() => String) channelName!: string;
  @Field(() => Int, { nullable: true }) minRelevance?: number | null;
  @Field(() => [String], { nullable: true }) sources?: string[] | null;
}

/** Spec 4.6 and 8: `channelId` 1 to 40, `channelName` 1 to 90, `minRelevance` 0 to 100 or null, at most 9 `sources` naming platforms. */
export const slackNotificationsInput = z.strictObject({
  channelId: z.string().min(1, 'must not be empty').max(40, 'must be at most 40 characters'),
  channelName: z.string().min(1, 'must not be empty').max(90, 'must be at most 90 characters'),
  minRelevance: z.number().int('must be an integer').min(0, 'must be 0 to 100').max(100, 'must be 0 to 100').nullish().transform((value) => value ?? null),
  sources: z
    .array(z.enum(platforms))
    .max(9, 'must name at most 9 platforms')
    .nullish()
    // A platform named twice is one source, as an account event named twice is one subscription.
    .transform((value) => [...new Set(value ?? [])]),
});

/** The connection as the API shows it: a workspace not connected has empty settings. */
function slackStatus(configured: boolean, row: SlackConnectionRow | undefined): SlackStatus {
  return {
    configured,
    connected: !!row,
    teamName: row?.teamName ?? '',
    notifications: { channelId: row?.channelId ?? '', channelName: row?.channelName ?? '', minRelevance: row?.minRelevance ?? null, sources: row?.sources ?? [] },
  };
}

@Resolver(() => SlackStatus)
export class SlackNotificationsResolver {
  @Query(() => SlackStatus, { description: "The workspace's Slack connection: whether this install has a Slack app, whether the workspace installed it, and where notifications go" })
  async slackStatus(@Ctx() ctx: SubgraphContext): Promise<SlackStatus> {
    const auth = requireAuth(ctx);
    if (!slackApp(ctx.env)) return slackStatus(false, undefined);
    return slackStatus(true, await findSlackConnection(ctx.sql, auth.workspaceId));
  }

  @Mutation(() => SlackStatus, { description: 'Sets the Slack channel notifications go to and which mentions they carry' })
  async updateSlackNotifications(@Arg('input', () => SlackNotificationsInput) input: SlackNotificationsInput, @Ctx() ctx: SubgraphContext): Promise<SlackStatus> {
    const auth = requireAuth(ctx);
    const settings = parseInput(slackNotificationsInput, input);
    requireSlackApp(ctx.env);
    const row = await saveSlackNotifications(ctx.sql, auth.workspaceId, settings, ctx.clock.now());
    if (!row) throw slackNotConnected();
    return slackStatus(true, row);
  }
}
