import type { Intent, Sentiment } from '../../vocabulary/classification-values.ts';
import { platformName } from '../../vocabulary/platform-names.ts';

/**
 * What a Slack, Telegram or e-mail message says about one delivery, before
 * any medium's markup: the medium-neutral wording the three renderers
 * (`slack-messages.ts`, `telegram-messages.ts`, `email-messages.ts`) share,
 * so a mention reads the same wherever it lands.
 */

/** The delivery envelope of spec 6.1, as the webhook channel sends it. */
export interface DeliveryEnvelope<Data> {
  id: string;
  event: string;
  createdAt: string;
  alert: { id: string | null; name: string } | null;
  data: Data;
}

/** The fields of a spec 2.4 mention record (`GET /v1/mentions/{id}`) the messages show. */
export interface MentionFields {
  id: string;
  keyword: { id: string; term: string };
  post: { platform: string; url: string; text: string; publishedAt: string };
  author: { name: string; handle: string; url: string; followers: number };
  classification: { relevance: number | null; sentiment: Sentiment | null; intents: Intent[] } | null;
}

/**
 * A digest run's `data` as `digests.ts` builds it (the `DigestData` schema of
 * openapi.json): every mention in exactly one of the two lists (spec 6.3),
 * each list cut at 100 while `counts` counts them all.
 */
export interface DigestData {
  mode: 'hourly' | 'daily' | 'weekly';
  period: { from: string; to: string };
  counts: {
    total: number;
    needsAttention: number;
    rest: number;
    byPlatform: { platform: string; count: number }[];
    byKeyword: { keyword: { id: string; term: string }; count: number }[];
  };
  needsAttention: MentionFields[];
  rest: MentionFields[];
}

/** The `data` of an account event (spec 6.4); each event names its own fields. */
export type AccountEventData = Record<string, unknown>;

export type Delivery =
  | { kind: 'mention'; envelope: DeliveryEnvelope<MentionFields> }
  | { kind: 'digest'; envelope: DeliveryEnvelope<DigestData> }
  | { kind: 'event'; envelope: DeliveryEnvelope<AccountEventData> }
  | { kind: 'test'; envelope: DeliveryEnvelope<{ message: string }> };

export interface ContentLink {
  label: string;
  url: string;
}

export interface ContentListItem {
  text: string;
  url: string;
  detail: string;
}

export interface MessageContent {
  /** The header, the e-mail subject, the notification line. */
  title: string;
  intro: string | null;
  /** The post's words, shortened. */
  quote: string | null;
  facts: { label: string; value: string }[];
  /** Mention lists of a digest; `more` counts the items left out for length. */
  sections: { heading: string; items: ContentListItem[]; more: number }[];
  links: ContentLink[];
  /** Set on instant mention alerts: the mention the Interacted button marks done. */
  interactedMentionId: string | null;
  footer: string;
}


const intentNames: Record<Intent, string> = {
  buy_intent: 'Buying intent',
  question: 'Question',
  complaint: 'Complaint',
  praise: 'Praise',
  comparison: 'Comparison',
};

/** The preset instant events of spec 6.2 by what their alerts announce; a rule's own event name reads as a plain new mention. */
const mentionEventTitles: Record<string, string> = {
  'mention.high_relevance': 'Highly relevant mention',
  'mention.negative': 'Negative mention',
  'mention.positive': 'Positive mention',
  'mention.buy_intent': 'Buying intent',
  'mention.question': 'Question',
  'mention.complaint': 'Complaint',
  'mention.comparison': 'Comparison',
};

/** Collapses white space and cuts at `max` characters on a word boundary where one is near. */
export function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if ([...flat].length <= max) return flat;
  const cut = [...flat].slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** A timestamp as people read it: `2028-03-09 14:05 UTC`. */
export const utc = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
};

/** The line an Interacted button appends to the mention's note (spec 6.4): in which chat app, who clicked, when. */
export function interactedNoteLine(app: 'Slack' | 'Telegram', who: string, at: Date): string {
  return `Interacted in ${app} by ${who}, ${utc(at.toISOString())}`;
}

const day = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 10);
};

const dollars = (cents: unknown): string => (typeof cents === 'number' ? `$${(cents / 100).toFixed(2)}` : '–');

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function footerOf(envelope: DeliveryEnvelope<unknown>): string {
  const alert = envelope.alert ? `Alert “${envelope.alert.name}” · ` : '';
  return `${alert}${envelope.event} · ${envelope.id}`;
}

function authorOf(mention: MentionFields): string {
  const { name, handle, followers } = mention.author;
  const who = handle && handle !== name ? `${name} (@${handle.replace(/^@/, '')})` : name || handle;
  return followers > 0 ? `${who} · ${plural(followers, 'follower')}` : who;
}

function mentionFacts(mention: MentionFields): MessageContent['facts'] {
  const facts = [
    { label: 'Author', value: authorOf(mention) },
    { label: 'Platform', value: platformName(mention.post.platform) },
  ];
  const classification = mention.classification;
  if (classification?.relevance !== null && classification?.relevance !== undefined) facts.push({ label: 'Relevance', value: `${classification.relevance}/100` });
  if (classification?.sentiment) facts.push({ label: 'Sentiment', value: classification.sentiment[0].toUpperCase() + classification.sentiment.slice(1) });
  if (classification?.intents.length) facts.push({ label: 'Intent', value: classification.intents.map((intent) => intentNames[intent] ?? intent).join(', ') });
  return facts;
}

function describeMention(envelope: DeliveryEnvelope<MentionFields>): MessageContent {
  const mention = envelope.data;
  // The table's own names only: a rule may be named `constructor`, which an indexed read answers with `Object`.
  const what = Object.hasOwn(mentionEventTitles, envelope.event) ? mentionEventTitles[envelope.event] : 'New mention';
  return {
    title: `${what}: “${mention.keyword.term}” on ${platformName(mention.post.platform)}`,
    intro: null,
    quote: excerpt(mention.post.text, 600) || null,
    facts: mentionFacts(mention),
    sections: [],
    links: [{ label: 'Open post', url: mention.post.url }],
    interactedMentionId: mention.id,
    footer: footerOf(envelope),
  };
}

/** How many mentions a digest lists per section: enough to act on, short enough for Telegram's 4096 characters. */
const digestListLength = 8;

function digestItem(mention: MentionFields): ContentListItem {
  const relevance = mention.classification?.relevance;
  const detail = [platformName(mention.post.platform), `“${mention.keyword.term}”`, relevance === null || relevance === undefined ? null : `${relevance}/100`];
  return { text: excerpt(mention.post.text, 100) || mention.post.url, url: mention.post.url, detail: detail.filter(Boolean).join(' · ') };
}

function describeDigest(envelope: DeliveryEnvelope<DigestData>): MessageContent {
  const digest = envelope.data;
  const { counts } = digest;
  const name = envelope.alert?.name ?? 'Digest';
  const list = (heading: string, mentions: MentionFields[], count: number) => ({
    heading: `${heading} (${count})`,
    items: mentions.slice(0, digestListLength).map(digestItem),
    more: Math.max(0, count - digestListLength),
  });
  // An hourly digest covers an hour: its period reads in hours and minutes, the others in days.
  const when = digest.mode === 'hourly' ? utc : day;
  return {
    title: `${name}: ${plural(counts.total, 'mention')}, ${counts.needsAttention} needing attention`,
    intro: `${when(digest.period.from)} to ${when(digest.period.to)}`,
    quote: null,
    facts: [
      ...(counts.byPlatform.length ? [{ label: 'By platform', value: counts.byPlatform.map((entry) => `${platformName(entry.platform)} ${entry.count}`).join(' · ') }] : []),
      ...(counts.byKeyword.length ? [{ label: 'By keyword', value: counts.byKeyword.map((entry) => `“${entry.keyword.term}” ${entry.count}`).join(' · ') }] : []),
    ],
    sections: counts.total
      ? [list('Needs attention', digest.needsAttention, counts.needsAttention), list('The rest', digest.rest, counts.rest)].filter((section) => section.items.length)
      : [],
    links: [],
    interactedMentionId: null,
    footer: footerOf(envelope),
  };
}

const resumeReasons: Record<string, string> = {
  balance_restored: 'a top-up restored the balance',
  cap_raised: 'its cap was raised',
  cap_removed: 'its cap was removed',
  month_turned: 'a new cap period started',
};

/** The title and sentence of each account event of spec 6.4. */
function describeAccountEvent(envelope: DeliveryEnvelope<AccountEventData>): MessageContent {
  const data = envelope.data;
  const keyword = (data.keyword ?? {}) as { term?: string };
  const wallet = (data.wallet ?? {}) as Record<string, unknown>;
  const term = `“${keyword.term ?? 'keyword'}”`;
  const walletFacts = data.wallet
    ? [
        { label: 'Balance', value: dollars(wallet.effectiveCents) },
        { label: 'Next day costs', value: dollars(wallet.nextDayCents) },
      ]
    : [];
  const base = { quote: null, sections: [], links: [], interactedMentionId: null, footer: footerOf(envelope) };
  switch (envelope.event) {
    case 'keyword.capped': {
      const cap = (data.cap ?? {}) as { mentions?: number };
      return {
        ...base,
        title: `Keyword ${term} reached its cap`,
        intro: `It matched ${data.thisMonth ?? cap.mentions} of ${cap.mentions} mentions this period and stopped listening until ${utc(String(data.resumesAt))}.`,
        facts: [],
      };
    }
    case 'keyword.paused_for_balance':
      return { ...base, title: `Keyword ${term} paused: the balance is too low`, intro: `A top-up of at least ${dollars(wallet.resumeCostCents)} resumes it.`, facts: walletFacts };
    case 'keyword.resumed':
      return { ...base, title: `Keyword ${term} is listening again`, intro: `It resumed at ${utc(String(data.resumedAt))}: ${resumeReasons[String(data.reason)] ?? String(data.reason)}.`, facts: [] };
    case 'wallet.low':
      return { ...base, title: 'Wallet balance is low', intro: `The balance fell to a fifth of the last credit of ${dollars(data.lastCreditCents)}.`, facts: walletFacts };
    case 'wallet.paused':
      return {
        ...base,
        title: 'Tracking paused: the wallet cannot cover another day',
        intro: `${plural(Number(data.keywordsPaused ?? 0), 'keyword')} stopped listening; a top-up of at least ${dollars(wallet.resumeCostCents)} resumes them.`,
        facts: walletFacts,
      };
    case 'wallet.resumed':
      return { ...base, title: 'Tracking resumed', intro: `${plural(Number(data.keywordsResumed ?? 0), 'keyword')} listen again.`, facts: walletFacts };
    default:
      return { ...base, title: `Account event ${envelope.event}`, intro: null, facts: [] };
  }
}

function describeTest(envelope: DeliveryEnvelope<{ message: string }>): MessageContent {
  return {
    title: 'Test message from Earshot',
    intro: envelope.data.message,
    quote: null,
    facts: [],
    sections: [],
    links: [],
    interactedMentionId: null,
    footer: footerOf(envelope),
  };
}

export function describeDelivery(delivery: Delivery): MessageContent {
  switch (delivery.kind) {
    case 'mention':
      return describeMention(delivery.envelope);
    case 'digest':
      return describeDigest(delivery.envelope);
    case 'event':
      return describeAccountEvent(delivery.envelope);
    case 'test':
      return describeTest(delivery.envelope);
  }
}
