import { z } from 'zod';
import { accountEventNames } from '../billing/index.ts';

export const channelKinds = ['webhook', 'slack', 'telegram', 'email'] as const;

// An HTTP field name (RFC 9110 token) and a value without line breaks, so a header cannot smuggle another. The value is
// printable ASCII, tabs and spaces: Node refuses to send a character past Latin-1, and sends one of Latin-1's upper half
// as a single byte that a UTF-8 reader takes for another, so nothing else reaches the receiver as it was written.
const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be an HTTP header name of 1 to 100 characters');
const headerValue = z
  .string()
  .max(2000, 'must be at most 2000 characters long')
  .regex(/^[^\r\n\0]*$/, 'must not contain line breaks')
  .regex(/^[\t\x20-\x7e]*$/, 'must be printable ASCII (letters, digits, punctuation, spaces and tabs)');
const headers = z
  .record(headerName, headerValue)
  .refine((value) => Object.keys(value).length <= 20, 'must have at most 20 headers')
  .meta({ description: 'Sent verbatim on every request; the service’s own headers win on a name clash' });
const events = z
  .array(z.enum(accountEventNames))
  .max(accountEventNames.length)
  .transform((names) => [...new Set(names)])
  .meta({ description: 'Account event names (spec 6.4) this channel receives; the whole set' });
const url = z
  .string()
  .max(2000, 'must be at most 2000 characters long')
  .refine((value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol), 'must be an http or https URL')
  .meta({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' });
// A chat's numeric id (negative for groups and channels) or a public channel's @username, as the Bot API takes `chat_id`.
const chatId = z
  .string()
  .regex(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/, 'must be a Telegram chat id (digits, negative for a group) or a public channel’s @username')
  .meta({ description: 'For `telegram`: the chat the bot posts to', example: '-1001234567890' });
// A Slack conversation id: public (C…) or private (G…) channel.
const slackChannelId = z
  .string()
  .regex(/^[CG][A-Z0-9]{6,20}$/, 'must be a Slack channel id such as C0123ABCDEF')
  .meta({ description: 'For `slack`: the id of the Slack channel to post to (channel details in Slack, or the end of its link)', example: 'C0123ABCDEF' });
const slackChannelName = z
  .string()
  .trim()
  .transform((name) => name.replace(/^#/, ''))
  .pipe(z.string().min(1, 'must not be empty').max(80, 'must be at most 80 characters long'))
  .meta({ description: 'For `slack`: the channel’s name, for people to read; default its id' });
const address = z.email('must be an e-mail address').max(254, 'must be at most 254 characters long').meta({ description: 'For `email`: the address alerts go to once it is confirmed' });
const label = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters long');

/** The fields that belong to one kind of channel: a URL, headers or events to a webhook (account events go to webhooks only, spec 6.4), a chat to Telegram, … */
export const channelFieldKinds = {
  url: ['webhook'],
  headers: ['webhook'],
  events: ['webhook'],
  chatId: ['telegram'],
  channelId: ['slack'],
  channelName: ['slack'],
  address: ['email'],
} as const;

const kindNames: Record<(typeof channelKinds)[number], string> = { webhook: 'a webhook', slack: 'a Slack', telegram: 'a Telegram', email: 'an e-mail' };

/** A channel of the kind as a message names it: "a Slack channel", "an e-mail channel". */
export const channelOfKind = (kind: string): string => `${kindNames[kind as keyof typeof kindNames] ?? `a ${kind}`} channel`;

/** The first field given that a channel of `kind` does not take. */
export function foreignChannelField(input: Record<string, unknown>, kind: string): keyof typeof channelFieldKinds | undefined {
  return (Object.keys(channelFieldKinds) as (keyof typeof channelFieldKinds)[]).find(
    (field) => input[field] !== undefined && !(channelFieldKinds[field] as readonly string[]).includes(kind),
  );
}

/**
 * A `mailto:` link's address. The spec's channel body (4.6) names `url` and no
 * field of its own for an address, so an e-mail channel also takes its
 * address as `url: "mailto:…"`.
 */
const mailtoAddress = (value: string): string | null => {
  const match = /^mailto:([^?]*)/i.exec(value);
  return match ? decodeURIComponent(match[1]) : null;
};
const mailtoOrHttpUrl = z
  .string()
  .max(2000, 'must be at most 2000 characters long')
  .refine((value) => mailtoAddress(value) !== null || (URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol)), 'must be an http or https URL, or a mailto: link for an e-mail channel')
  .meta({ format: 'uri', pattern: '^([Hh][Tt][Tt][Pp][Ss]?://|[Mm][Aa][Ii][Ll][Tt][Oo]:)' });
/** The field a channel of each kind cannot do without (channel-commands.ts asks for it once the kind is known to be configured). */
const neededField = { webhook: 'url', slack: 'channelId', telegram: 'chatId', email: 'address' } as const satisfies Record<(typeof channelKinds)[number], keyof typeof channelFieldKinds>;

/** The body as `openapi.json` shows it: one shape per kind, with the field it needs and no other kind's fields; an e-mail channel's address may come as a `mailto:` url. */
const bodyOfEachKind = channelKinds.map((kind) => {
  const fields = ['kind', 'label', ...Object.entries(channelFieldKinds).flatMap(([field, kinds]) => ((kinds as readonly string[]).includes(kind) ? [field] : []))];
  if (kind !== 'email') return { properties: { kind: { const: kind } }, required: ['kind', neededField[kind]], propertyNames: { enum: fields } };
  return { properties: { kind: { const: kind } }, required: ['kind'], oneOf: [{ required: ['address'] }, { required: ['url'] }], propertyNames: { enum: [...fields, 'url'] } };
});

export const createChannelInput = z
  .strictObject({
    kind: z.enum(channelKinds),
    url: mailtoOrHttpUrl.optional().meta({ description: 'For `webhook`: where deliveries are posted. For `email`, `mailto:<address>` may stand for `address`' }),
    label: label.optional(),
    headers: headers.optional(),
    events: events.optional(),
    chatId: chatId.optional(),
    channelId: slackChannelId.optional(),
    channelName: slackChannelName.optional(),
    address: address.optional(),
  })
  .superRefine((input, context) => {
    if (input.kind === 'webhook' && input.url === undefined) context.addIssue({ code: 'custom', path: ['url'], message: 'is required for a webhook' });
    const mailto = input.url === undefined ? null : mailtoAddress(input.url);
    if (mailto !== null) {
      if (input.kind !== 'email') context.addIssue({ code: 'custom', path: ['url'], message: 'must be an http or https URL' });
      else if (input.address !== undefined) context.addIssue({ code: 'custom', path: ['url'], message: 'names the address a second time: give address or a mailto: url' });
      else if (!address.safeParse(mailto).success) context.addIssue({ code: 'custom', path: ['url'], message: 'must be a mailto: link to one e-mail address' });
    }
    for (const field of Object.keys(channelFieldKinds) as (keyof typeof channelFieldKinds)[]) {
      if (field === 'url' && mailto !== null) continue;
      if (foreignChannelField({ [field]: input[field] }, input.kind)) context.addIssue({ code: 'custom', path: [field], message: `is not taken by ${channelOfKind(input.kind)}` });
    }
  })
  .meta({ oneOf: bodyOfEachKind })
  .transform((input) => {
    const mailto = input.url === undefined ? null : mailtoAddress(input.url);
    return mailto === null ? input : { ...input, url: undefined, address: mailto };
  });

/** A channel's changes: a webhook's URL, headers and events, a Telegram channel's chat, a Slack channel's channel; an e-mail address is confirmed once and not changed. */
export const updateChannelInput = z.strictObject({
  url: url.optional(),
  label: label.optional(),
  headers: headers.optional(),
  events: events.optional(),
  chatId: chatId.optional(),
  channelId: slackChannelId.optional(),
  channelName: slackChannelName.optional(),
});

/** What a channel's delivery log can be narrowed to (spec 2.10's `status` and `kind`; a test send is kind `event`). */
export const deliveryLogFilter = z.strictObject({
  status: z.enum(['pending', 'delivered', 'failed']).optional().meta({ description: 'Only deliveries in this state' }),
  kind: z.enum(['mention', 'digest', 'event']).optional().meta({ description: 'Only deliveries of this kind; `event` includes test sends' }),
});
