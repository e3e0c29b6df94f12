import 'reflect-metadata';
import { Arg, Ctx, Field, ID, Int, Mutation, ObjectType, Resolver } from 'type-graphql';
import { domainError, notFound } from '../domain-error.ts';
import { findAlertRule } from '../mentions/index.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { TestSendResult } from './channel.ts';
import { findChannelsByIds } from './channel-store.ts';
import { deliverySettings } from './delivery-sending.ts';
import { runDigest } from './digests.ts';
import { sendTestDeliveries } from './test-sends.ts';

@ObjectType({ description: 'A digest run started on demand: the period it covered and the deliveries it queued, one per channel' })
export class DigestRunResult {
  @Field(() => ID) alertId!: string;
  @Field(() => Date) from!: Date;
  @Field(() => Date) to!: Date;
  @Field(() => Int, { description: 'Mentions the digest covers' }) mentions!: number;
  @Field(() => [ID]) deliveryIds!: string[];
}

/** Sends made on demand through an alert rule's channels: the rule lives in the mentions subgraph, the sending here. */
@Resolver()
export class AlertRuleSendResolver {
  @Mutation(() => TestSendResult, { description: 'Sends event `test` through every channel of the rule now, with `alert` filled in' })
  async testAlertRule(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<TestSendResult> {
    const rule = await findAlertRule(ctx.sql, requireAuth(ctx).workspaceId, id);
    if (!rule) throw notFound('Alert rule');
    const channels = (await findChannelsByIds(ctx.sql, rule.channelIds)).filter((channel) => channel.workspaceId === rule.workspaceId);
    const outcomes = await sendTestDeliveries(ctx.sql, channels, { id: rule.id, name: rule.name }, deliverySettings(ctx.env, ctx.secrets), () => ctx.clock.now());
    return { outcomes };
  }

  @Mutation(() => DigestRunResult, { description: 'Runs an hourly, daily or weekly rule now: a digest of what it has not sent yet; `not_a_digest` for an instant rule' })
  async runAlertRule(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<DigestRunResult> {
    const workspaceId = requireAuth(ctx).workspaceId;
    const rule = await findAlertRule(ctx.sql, workspaceId, id);
    if (!rule) throw notFound('Alert rule');
    if (rule.mode === 'instant') throw domainError('not_a_digest', 'This rule sends instantly; only hourly, daily and weekly rules run digests');
    const run = await runDigest(ctx.sql, workspaceId, rule.id, ctx.clock.now(), false);
    if (!run) throw notFound('Alert rule');
    return run;
  }
}
