import 'reflect-metadata';
import { Arg, Ctx, Field, ID, Mutation, ObjectType, Resolver } from 'type-graphql';
import { domainError } from '../domain-error.ts';
import { recordInteractedClick } from './interacted-button.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { parseSlackInteraction, requireSlackApp, verifySlackRequest } from './slack-api.ts';
import { workspacesOfSlackTeam } from './slack-connection-store.ts';

@ObjectType()
export class SlackInteractionReceipt {
  @Field(() => [ID], { description: 'The mentions marked done: every match of the clicked post' }) mentionsDone!: string[];
}

/**
 * A click on an alert's Interacted button (spec 6.4): every mention of that
 * post in the workspaces connected to the clicker's Slack team is marked
 * done, and the clicked mention's note gets a line saying who and when.
 * Slack signs the request; anything unsigned, stale or altered is
 * `invalid_signature`. Other clicks (the link button) are acknowledged.
 */
export async function handleSlackInteraction(
  ctx: Pick<SubgraphContext, 'sql' | 'env' | 'clock'>,
  request: { body: string; timestamp: string | null; signature: string | null },
): Promise<string[]> {
  const app = requireSlackApp(ctx.env);
  const now = ctx.clock.now();
  const headers = { 'x-slack-request-timestamp': request.timestamp ?? '', 'x-slack-signature': request.signature ?? '' };
  if (!verifySlackRequest(app.signingSecret, headers, request.body, now)) {
    throw domainError('invalid_signature', 'X-Slack-Signature does not match the body or is older than five minutes');
  }
  const interaction = parseSlackInteraction(request.body);
  if (!interaction) return [];
  return recordInteractedClick(ctx.sql, {
    app: 'Slack',
    who: `@${interaction.user.name}`,
    at: now,
    workspaceIds: await workspacesOfSlackTeam(ctx.sql, interaction.teamId),
    mentionIds: interaction.mentionIds,
  });
}

@Resolver()
export class SlackInteractionResolver {
  @Mutation(() => SlackInteractionReceipt, {
    description: "Slack's interactivity requests: the raw form-encoded body and its signature headers. Needs no API key (the signature is the credential).",
  })
  async receiveSlackInteraction(
    @Arg('body', () => String) body: string,
    @Arg('timestamp', () => String, { nullable: true }) timestamp: string | null,
    @Arg('signature', () => String, { nullable: true }) signature: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<SlackInteractionReceipt> {
    return { mentionsDone: await handleSlackInteraction(ctx, { body, timestamp, signature }) };
  }
}
