import 'reflect-metadata';
import { Arg, Ctx, Field, ID, Mutation, ObjectType, Resolver } from 'type-graphql';
import { domainError } from '../domain-error.ts';
import { JsonScalar } from '../json-scalar.ts';
import type { SubgraphContext } from '../subgraph-server.ts';
import type { Queryable } from '../../runtime/database.ts';
import { anyTelegramChannel, workspacesOfTelegramChat } from './channel-store.ts';
import { recordInteractedClick } from './interacted-button.ts';
import { onceWhileClientWaits } from '../../runtime/upstream-http.ts';
import { parseTelegramCallback, registerTelegramWebhook, requireTelegramBot, telegramBot, verifyTelegramUpdate } from './telegram-api.ts';
import { interactedMentionOf } from './telegram-messages.ts';

@ObjectType()
export class TelegramUpdateReceipt {
  @Field(() => String, { nullable: true, description: 'The clicked button’s `callback_query` id, to be answered so Telegram stops the button’s spinner; null for other updates' })
  callbackQueryId!: string | null;
  @Field(() => String, { nullable: true, description: 'What the clicker is shown' }) notice!: string | null;
  @Field(() => [ID], { description: 'The mentions marked done: every match of the clicked post' }) mentionsDone!: string[];
}

/**
 * A click on an alert's Interacted button in Telegram (spec 6.4): every
 * mention of that post in the workspaces with a Telegram channel in the
 * chat clicked in is marked done, and the clicked mention's note gets a
 * line saying who and when. Telegram proves an update with the secret the
 * webhook was registered with; without it the update is `invalid_signature`.
 * Other updates and other buttons are acknowledged and change nothing.
 */
export async function handleTelegramUpdate(
  ctx: Pick<SubgraphContext, 'sql' | 'env' | 'clock'>,
  request: { update: unknown; secretToken: string | null },
): Promise<TelegramUpdateReceipt> {
  const bot = requireTelegramBot(ctx.env);
  if (!verifyTelegramUpdate(bot, request.secretToken)) {
    throw domainError('invalid_signature', 'X-Telegram-Bot-Api-Secret-Token is missing or is not the secret the bot’s webhook was registered with');
  }
  const callback = parseTelegramCallback(request.update);
  if (!callback) return { callbackQueryId: null, notice: null, mentionsDone: [] };
  const mentionId = interactedMentionOf(callback.data);
  if (!mentionId || !callback.chat) return { callbackQueryId: callback.id, notice: null, mentionsDone: [] };
  const done = await recordInteractedClick(ctx.sql, {
    app: 'Telegram',
    who: callback.user.name,
    at: ctx.clock.now(),
    workspaceIds: await workspacesOfTelegramChat(ctx.sql, callback.chat),
    mentionIds: [mentionId],
  });
  return { callbackQueryId: callback.id, notice: done.length ? 'Marked done' : 'This mention is no longer tracked here', mentionsDone: done };
}

/**
 * Points the bot's webhook at this install so Interacted clicks reach it,
 * when a Telegram channel starts posting somewhere. Best effort: a refusal
 * (Telegram takes only a public HTTPS address) leaves the alerts working
 * without their button doing anything, and says so in the log.
 */
export async function connectTelegramButtons(ctx: Pick<SubgraphContext, 'env' | 'log'>): Promise<void> {
  const bot = telegramBot(ctx.env);
  if (!bot) return;
  try {
    await registerTelegramWebhook(bot, ctx.env, onceWhileClientWaits);
  } catch (error) {
    ctx.log.warn('Telegram refused the bot’s webhook: Interacted buttons in Telegram will not reach Earshot (EARSHOT_PUBLIC_URL must be public HTTPS)', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * The same when a worker starts on an install with Telegram channels, so the
 * buttons of channels made before (or before a change of EARSHOT_PUBLIC_URL)
 * reach this install too.
 */
export async function connectTelegramButtonsAtStart(sql: Queryable, ctx: Pick<SubgraphContext, 'env' | 'log'>): Promise<void> {
  if (telegramBot(ctx.env) && (await anyTelegramChannel(sql))) await connectTelegramButtons(ctx);
}

@Resolver()
export class TelegramInteractionResolver {
  @Mutation(() => TelegramUpdateReceipt, {
    description: "The bot's webhook updates, with the `X-Telegram-Bot-Api-Secret-Token` they came with. Needs no API key (the secret is the credential).",
  })
  async receiveTelegramUpdate(
    @Arg('update', () => JsonScalar) update: unknown,
    @Arg('secretToken', () => String, { nullable: true }) secretToken: string | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<TelegramUpdateReceipt> {
    return handleTelegramUpdate(ctx, { update, secretToken });
  }
}
