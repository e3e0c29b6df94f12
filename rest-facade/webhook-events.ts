import { z } from 'zod';
import { accountEventData, accountEventNames } from '../subgraphs/billing/index.ts';
import { mentionSchema } from './routes/mentions.ts';

/** One outgoing request the service makes, documented under `webhooks` in the OpenAPI document. */
export interface WebhookEvent {
  name: string;
  summary: string;
  description: string;
  schema: z.ZodType;
}

const timestamp = z.iso.datetime();

const envelope = <Data extends z.ZodType>(event: z.ZodType, alert: z.ZodType, data: Data) =>
  z.object({
    id: z.string().meta({ description: 'The delivery id (`dlv_…`), also in the delivery log and `webhook-id`; a retry resends it. Deduplicate on it. The deliveries of the account events of one channel ascend in the order the events were recorded, so sorting by it restores that order', example: 'dlv_01jd8x3m5c2v7q9r4t6w8y0z1a' }),
    event,
    createdAt: timestamp.meta({ description: 'When the request was built; retries resend the same body' }),
    alert,
    data,
  });

/** `keyword.capped` → `KeywordCappedDelivery`: the schema name of one account event's request. */
const deliveryIdOf = (name: string) => `${name.split(/[._]/).map((word) => word[0].toUpperCase() + word.slice(1)).join('')}Delivery`;

const ruleAlert = z.object({ id: z.string().meta({ example: 'feed_01jd8x3m5c2v7q9r4t6w8y0z1a' }), name: z.string() });

const countedKeyword = z.object({ keyword: z.object({ id: z.string(), term: z.string() }), count: z.number().int() });

export const digestDataSchema = z
  .object({
    mode: z.enum(['hourly', 'daily', 'weekly']),
    period: z.object({ from: timestamp, to: timestamp }).meta({ description: 'Mentions scored after `from` and up to `to` (the previous run’s end and this run)' }),
    counts: z.object({
      total: z.number().int(),
      needsAttention: z.number().int(),
      rest: z.number().int(),
      byPlatform: z.array(z.object({ platform: z.string(), count: z.number().int() })).meta({ description: 'Most first' }),
      byKeyword: z.array(countedKeyword).meta({ description: 'Most first' }),
    }),
    needsAttention: z.array(mentionSchema).meta({ description: 'Buying intent, a question, a complaint or a negative sentiment; highest priority first, at most 100 (see `counts`)' }),
    rest: z.array(mentionSchema).meta({ description: 'Every other mention, highest priority first, at most 100. A mention is in exactly one list' }),
  })
  .meta({
    id: 'DigestData',
    description: 'One per run (spec 6.3), sent even when the period holds no mention (`counts.total` 0, both lists empty), so a receiver can tell a quiet day from a missed digest',
  });

/** One request schema per account event, its `data` as spec 6.4 lists it. */
const [firstAccountEvent, ...otherAccountEvents] = accountEventNames.map((name) =>
  envelope(z.literal(name), z.null(), accountEventData[name]).meta({ id: deliveryIdOf(name) }),
);

const signing =
  'Signed three ways with the channel secret (`whsec_…`): `X-Mentions-Signature` is the lowercase hex HMAC-SHA256 of the raw body keyed with the whole secret string; ' +
  '`X-Mentions-Signature-V2` is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the same key (refuse old `t` to stop replays); ' +
  'and the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` (`v1,<base64>`), which the official `standardwebhooks` libraries verify as they are. ' +
  'The channel’s own headers are sent too; ours win on a name clash. Answer 2xx within 10 seconds; time-outs, network errors, 408, 429 (with `Retry-After`) and 5xx are retried, ' +
  'up to 5 attempts about 30 seconds apart (a digest: for up to 6 hours, an hourly one until the next), with the same id and bytes; any other 4xx fails the delivery at once.';

export const webhookEvents: WebhookEvent[] = [
  {
    name: 'mention',
    summary: 'An instant alert: one request per mention passing the rule, right after scoring',
    description: `\`event\` is the rule's event (\`mention.matched\` unless it names another); \`data\` is the mention exactly as \`GET /v1/mentions/{id}\` returned it then. ${signing}`,
    schema: envelope(z.string().meta({ example: 'mention.matched' }), ruleAlert, mentionSchema).meta({ id: 'MentionDelivery' }),
  },
  {
    name: 'digest',
    summary: 'An hourly, daily or weekly digest: one request per run and channel, at the start of every hour or at the rule’s UTC hour',
    description: `\`event\` is the rule's event (\`digest\` unless it names another). ${signing}`,
    schema: envelope(z.string().meta({ example: 'digest' }), ruleAlert, digestDataSchema).meta({ id: 'DigestDelivery' }),
  },
  {
    name: 'account-event',
    summary: 'An account event the channel subscribed to (`events`), within about a minute of the transition',
    description: `\`alert\` is null; \`data\` is the event's body (spec 6.4). A channel subscribed after an event does not receive it. ${signing}`,
    schema: z.discriminatedUnion('event', [firstAccountEvent, ...otherAccountEvents]).meta({ id: 'AccountEventDelivery' }),
  },
  {
    name: 'test',
    summary: 'A test send from `POST /v1/channels/{id}/test` or `POST /v1/alerts/{id}/test`',
    description: `\`alert\` is null for a channel test and the rule for a rule test. ${signing}`,
    schema: envelope(z.literal('test'), ruleAlert.nullable(), z.object({ message: z.string() })).meta({ id: 'TestDelivery' }),
  },
];
