import 'reflect-metadata';
import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { notFound } from '../domain-error.ts';
import { findAlertRule } from '../mentions/index.ts';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { TestSendResult } from './channel.ts';
import { findChannelsByIds } from './channel-store.ts';
import { deliverySettings } from './delivery-sending.ts';
import { sendTestDeliveries } from './test-sends.ts';

/** Sends made on demand through an alert rule's channels: the rule lives in the mentions subgraph, the sending here. */
@Resolver()
export class AlertRuleSendResolver {
  @Mutation(() => TestSendResult, { description: 'Sends event `test` through every channel of the rule now, with `alert` filled in' })
  async testAlertRule(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<TestSendResult> {
    const rule = await findAlertRule(ctx.sql, requireAuth(ctx).workspaceId, id);
    if (!rule) throw notFound('Alert rule');
    const channels = (await findChannelsByIds(ctx.sql, rule.channelIds)).filter((channel) => channel.workspaceId === rule.workspaceId);
    const outcomes = await sendTestDeliveries(ctx.sql, channels, { id: rule.id, name: rule.name }, deliverySettings(ctx.env), () => ctx.clock.now());
    return { outcomes };
  }
}
