import { z } from 'zod';
import type { GraphQLRoute } from '../route.ts';

const telegramUpdate = z
  .object({
    update_id: z.number().int(),
    callback_query: z
      .object({ id: z.string(), data: z.string().optional().meta({ description: '`interacted:` and the mention id on an Interacted button' }) })
      .loose()
      .optional(),
  })
  .loose()
  .meta({ id: 'TelegramUpdate', description: 'A Bot API `Update`; only `callback_query` is acted on' });

/** Telegram runs a Bot API method named in a webhook's answer: here `answerCallbackQuery`, which ends the clicked button's spinner with a notice. */
const webhookAnswerSchema = z
  .object({
    method: z.literal('answerCallbackQuery').optional(),
    callback_query_id: z.string().optional(),
    text: z.string().optional(),
  })
  .meta({ id: 'TelegramWebhookAnswer', description: 'Empty for an update other than a button click' });

export const telegramRoutes: GraphQLRoute[] = [
  {
    method: 'POST',
    path: '/v1/telegram/updates',
    operationId: 'receiveTelegramUpdate',
    summary:
      "The Telegram bot's webhook (registered with `setWebhook` when a Telegram channel is created or moved, and when a worker starts on an install with Telegram channels): a click on an alert's Interacted button marks every match of the post done and notes who clicked. Needs no API key: `X-Telegram-Bot-Api-Secret-Token` must carry the secret the webhook was registered with",
    tag: 'Channels',
    public: true,
    body: telegramUpdate,
    responses: {
      200: { description: 'Received; other updates and buttons are acknowledged and change nothing', schema: webhookAnswerSchema },
      400: { description: 'The secret header is missing or wrong (`invalid_signature`), or the body is not an update (`validation_error`)' },
      501: { description: 'No Telegram bot is configured on this install (`telegram_not_configured`)' },
    },
    operation: `mutation ReceiveTelegramUpdate($update: JSON!, $secretToken: String) {
      receiveTelegramUpdate(update: $update, secretToken: $secretToken) { callbackQueryId notice mentionsDone }
    }`,
    variables: ({ body, headers }) => ({ update: body, secretToken: headers.get('x-telegram-bot-api-secret-token') }),
    result: ({ receiveTelegramUpdate: receipt }) => ({
      status: 200,
      body: receipt.callbackQueryId
        ? { method: 'answerCallbackQuery', callback_query_id: receipt.callbackQueryId, ...(receipt.notice ? { text: receipt.notice } : {}) }
        : {},
    }),
  },
];
