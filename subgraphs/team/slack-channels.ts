import 'reflect-metadata';
import { Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { onceWhileClientWaits } from '../../runtime/upstream-http.ts';
import { domainError } from '../domain-error.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { IntegrationError } from './integration-error.ts';
import { listSlackChannels, requireSlackApp, slackNotConnected } from './slack-api.ts';
import { findSlackConnection, openSlackBotToken } from './slack-connection-store.ts';

@ObjectType({ description: 'A channel of the connected Slack workspace that notifications can go to' })
export class SlackChannelChoice {
  @Field(() => String, { description: 'The Slack channel id (`C…`), what `channelId` takes' }) id!: string;
  @Field(() => String, { description: 'The name without `#`' }) name!: string;
  @Field(() => Boolean, { description: 'A private channel; Slack lists only those the app was invited to' }) isPrivate!: boolean;
  @Field(() => Boolean, { description: 'Whether the app is in the channel' }) isMember!: boolean;
}

@ObjectType({ description: "The connected Slack workspace's channels, by name" })
export class SlackChannelList {
  @Field(() => [SlackChannelChoice]) channels!: SlackChannelChoice[];
}

@Resolver()
export class SlackChannelsResolver {
  /**
   * Asked of Slack on each call, not stored: channels come and go in Slack.
   * Any failure of Slack's (an `ok: false`, a revoked token, no answer) is
   * `upstream_unavailable`, for the picker to fall back to typing the channel.
   */
  @Query(() => SlackChannelList, { description: "The connected Slack workspace's public channels and the private ones the app was invited to, archived ones left out, sorted by name; at most 1,000" })
  async slackChannels(@Ctx() ctx: SubgraphContext): Promise<SlackChannelList> {
    const auth = requireAuth(ctx);
    const app = requireSlackApp(ctx.env);
    const connection = await findSlackConnection(ctx.sql, auth.workspaceId);
    if (!connection) throw slackNotConnected();
    const bot = { apiBase: app.apiBase, botToken: openSlackBotToken(ctx.secrets, connection) };
    try {
      return { channels: await listSlackChannels(bot, onceWhileClientWaits) };
    } catch (error) {
      if (!(error instanceof IntegrationError)) throw error;
      // A refusal such as `missing_scope` answers the same until the app is reinstalled: no retry is suggested for it.
      const retry = error.transient ? { retryAfterSeconds: error.retryAfterSeconds ?? 30 } : {};
      throw domainError('upstream_unavailable', `Slack did not list the channels (${error.code}); type the channel instead`, retry, error);
    }
  }
}
