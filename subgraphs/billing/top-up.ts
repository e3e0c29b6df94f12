import 'reflect-metadata';
import { Arg, Ctx, Field, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import { requireAuth } from '../require-auth.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import { handleStripeWebhook } from './stripe-webhook.ts';
import { confirmTopUp, findWorkspaceTopUp, startTopUp } from './top-up-checkout.ts';
import type { TopUpOrderRow } from './top-up-order-store.ts';

export enum TopUpStatus {
  pending = 'pending',
  credited = 'credited',
  expired = 'expired',
  failed = 'failed',
}
registerEnumType(TopUpStatus, {
  name: 'TopUpStatus',
  description: '`pending` until paid; `credited` once, when the wallet got the money; `expired` or `failed` when the checkout ended unpaid',
});

@ObjectType({ description: 'A top-up order through the payment provider' })
export class TopUp {
  @Field(() => ID) id!: string;
  @Field(() => Int) amountCents!: number;
  @Field(() => TopUpStatus) status!: TopUpStatus;
  @Field(() => String, { nullable: true, description: "The provider's checkout page to send the payer to" }) checkoutUrl!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) creditedAt!: Date | null;
}

@InputType()
export class StartTopUpInput {
  @Field(() => Int, { description: '2,000 to 500,000 ($20 to $5,000)' }) amountCents!: number;
  @Field(() => String, { nullable: true }) successUrl?: string | null;
  @Field(() => String, { nullable: true }) cancelUrl?: string | null;
}

@ObjectType({ description: 'What a provider webhook delivery did' })
export class StripeWebhookReceipt {
  @Field(() => Boolean) received!: boolean;
  @Field(() => ID, { nullable: true, description: 'The top-up the event was about; null when it was about something else' }) orderId!: string | null;
  @Field(() => TopUpStatus, { nullable: true }) status!: TopUpStatus | null;
}

const topUpContext = (ctx: SubgraphContext) => ({ sql: ctx.sql, env: ctx.env, now: ctx.clock.now() });

const toTopUp = (order: TopUpOrderRow): TopUp => ({ ...order, status: order.status as TopUpStatus });

@Resolver(() => TopUp)
export class TopUpResolver {
  @Query(() => TopUp, { description: 'One top-up order of the workspace' })
  async topUp(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<TopUp> {
    return toTopUp(await findWorkspaceTopUp(ctx.sql, requireAuth(ctx).workspaceId, id));
  }

  @Mutation(() => TopUp, { description: 'Starts a top-up: open `checkoutUrl` to pay; the wallet is credited when the provider reports the payment' })
  async startTopUp(@Arg('input', () => StartTopUpInput) input: StartTopUpInput, @Ctx() ctx: SubgraphContext): Promise<TopUp> {
    return toTopUp(await startTopUp(topUpContext(ctx), requireAuth(ctx).workspaceId, input));
  }

  @Mutation(() => TopUp, { description: 'Asks the provider whether the order was paid and credits it if so (once); `order_not_credited` otherwise' })
  async confirmTopUp(@Arg('id', () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<TopUp> {
    return toTopUp(await confirmTopUp(topUpContext(ctx), requireAuth(ctx).workspaceId, id));
  }

  @Mutation(() => StripeWebhookReceipt, {
    description: "Stripe's webhook: the raw body and its Stripe-Signature header. Needs no API key (the signature is the credential).",
  })
  async receiveStripeWebhook(
    @Arg('payload', () => String) payload: string,
    @Arg('signature', () => String, { nullable: true }) signature: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<StripeWebhookReceipt> {
    const outcome = await handleStripeWebhook(topUpContext(ctx), payload, signature);
    return { received: true, orderId: outcome.orderId, status: outcome.status as TopUpStatus | null };
  }
}
