import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Delivery, type DigestData, type MentionFields, interactedNoteLine } from '../subgraphs/team/delivery-content.ts';
import { confirmationEmail, emailMessage } from '../subgraphs/team/email-messages.ts';
import { createMailer, type Mailer } from '../subgraphs/team/mailer.ts';
import { exchangeSlackCode, postSlackMessage, type SlackBot, slackApp } from '../subgraphs/team/slack-api.ts';
import { slackMessage } from '../subgraphs/team/slack-messages.ts';
import { sendTelegramMessage, type TelegramBot } from '../subgraphs/team/telegram-api.ts';
import { telegramMessage } from '../subgraphs/team/telegram-messages.ts';
import { type FakeSlack, startFakeSlack } from './fake-upstreams/slack.ts';
import { type FakeSmtp, startFakeSmtp } from './fake-upstreams/smtp.ts';
import { type FakeTelegram, startFakeTelegram } from './fake-upstreams/telegram.ts';

/** A mention record exactly as `GET /v1/mentions/{id}` answers it (spec 2.4). */
function mentionRecord(overrides: { id?: string; text?: string; term?: string; platform?: string; url?: string; relevance?: number } = {}): MentionFields {
  return {
    id: overrides.id ?? 'mm_01jd8x3m5c2v7q9r4t6w8y0z1a',
    status: 'open',
    relevant: true,
    delivered: false,
    priority: 71.5,
    keyword: { id: 'kw_01', term: overrides.term ?? 'earshot' },
    post: {
      platform: overrides.platform ?? 'hackernews',
      url: overrides.url ?? 'https://news.ycombinator.com/item?id=4242&p=2',
      text: overrides.text ?? 'Is Earshot any good for tracking brand mentions? Thinking of switching.',
      publishedAt: '2026-11-25T03:58:00.000Z',
      replyTo: null,
      links: [],
    },
    author: { id: 'aut_01', name: 'Ada Lovelace', handle: 'ada', url: 'https://news.ycombinator.com/user?id=ada', avatarUrl: null, followers: 1200, tags: [] },
    classification: {
      relevance: overrides.relevance ?? 87,
      sentiment: 'neutral',
      intents: ['question', 'buy_intent'],
      automated: false,
      language: 'en',
      note: null,
      failed: false,
      feedback: null,
    },
    triage: { assignee: null, snoozedUntil: null, note: null },
    createdAt: '2026-11-25T04:00:00.000Z',
  } as MentionFields;
}

const envelope = <Data,>(event: string, data: Data, alert: { id: string | null; name: string } | null = { id: 'feed_01', name: 'Buyers' }) => ({
  id: 'dlv_01jd8x3m5c2v7q9r4t6w8y0z1b',
  event,
  createdAt: '2026-11-25T04:00:01.000Z',
  alert,
  data,
});

const mentionDelivery = (mention = mentionRecord(), event = 'mention.question'): Delivery => ({ kind: 'mention', envelope: envelope(event, mention) });

const hostile = mentionRecord({
  term: 'a<b>&c',
  text: 'Try <script>alert("x")</script> & compare *bold* _it_ <https://evil.example|click> > quote',
  url: 'https://example.com/p?a=1&b=<2>|3',
});

function digest(needsAttention: number, rest: number, text = 'A post about Earshot'): Delivery {
  const mentions = (count: number, prefix: string) =>
    Array.from({ length: count }, (_, index) => mentionRecord({ id: `mm_${prefix}${index}`, text: `${text} ${prefix} #${index}`, url: `https://reddit.com/r/x/${prefix}${index}`, platform: 'reddit' }));
  const data: DigestData = {
    mode: 'daily',
    period: { from: '2026-11-24T00:00:00.000Z', to: '2026-11-25T00:00:00.000Z' },
    counts: {
      total: needsAttention + rest,
      needsAttention,
      rest,
      byPlatform: [{ platform: 'reddit', count: needsAttention + rest }],
      byKeyword: [{ keyword: { id: 'kw_01', term: 'earshot' }, count: needsAttention + rest }],
    },
    // Cut at 100 each, as a digest's lists are; the counts keep every one.
    needsAttention: mentions(Math.min(needsAttention, 100), 'n'),
    rest: mentions(Math.min(rest, 100), 'r'),
  };
  return { kind: 'digest', envelope: envelope('digest', data, { id: 'feed_02', name: 'Daily digest' }) };
}

const wallet = { balanceCents: 412, effectiveCents: 380, nextDayCents: 17, resumeCostCents: 34, activeKeywords: 2, pausedKeywords: 0 };
const keyword = { id: 'kw_01', term: 'earshot', kind: 'brand' };
const accountEvents: [string, Record<string, unknown>, string, string | null][] = [
  ['keyword.capped', { keyword, cap: { mentions: 200 }, thisMonth: 200, pausedAt: '2026-11-25T04:00:00Z', resumesAt: '2026-12-01T00:00:00Z' }, 'Keyword “earshot” reached its cap', 'It matched 200 of 200 mentions this period and stopped listening until 2026-12-01 00:00 UTC.'],
  ['keyword.paused_for_balance', { keyword, pausedAt: '2026-11-25T04:00:00Z', wallet }, 'Keyword “earshot” paused: the balance is too low', 'A top-up of at least $0.34 resumes it.'],
  ['keyword.resumed', { keyword, reason: 'cap_raised', resumedAt: '2026-11-25T05:00:00Z' }, 'Keyword “earshot” is listening again', 'It resumed at 2026-11-25 05:00 UTC: its cap was raised.'],
  ['wallet.low', { wallet, lastCreditCents: 2000, at: '2026-11-25T04:00:00Z' }, 'Wallet balance is low', 'The balance fell to a fifth of the last credit of $20.00.'],
  ['wallet.paused', { wallet, keywordsPaused: 3, at: '2026-11-25T04:00:00Z' }, 'Tracking paused: the wallet cannot cover another day', '3 keywords stopped listening; a top-up of at least $0.34 resumes them.'],
  ['wallet.resumed', { wallet, keywordsResumed: 1, at: '2026-11-25T04:00:00Z' }, 'Tracking resumed', '1 keyword listen again.'],
];
const testDelivery: Delivery = { kind: 'test', envelope: envelope('test', { message: 'Hello from <Earshot> & co' }, null) };

describe('Slack messages', () => {
  let slack: FakeSlack;
  let bot: SlackBot;
  beforeAll(async () => {
    slack = await startFakeSlack();
    const app = slackApp({ EARSHOT_SLACK_CLIENT_ID: slack.clientId, EARSHOT_SLACK_CLIENT_SECRET: slack.clientSecret, EARSHOT_SLACK_SIGNING_SECRET: 's', EARSHOT_UPSTREAM_SLACK: slack.url })!;
    const installed = await exchangeSlackCode(app, slack.approveInstall(app.redirectUri));
    bot = { apiBase: app.apiBase, botToken: installed.botToken };
  });
  afterAll(() => slack.close());

  it('shows an instant mention alert with the post, its facts, a link to it and the Interacted button', async () => {
    const message = slackMessage(mentionDelivery());
    expect(message).toEqual({
      text: 'Question: “earshot” on Hacker News',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Question: “earshot” on Hacker News', emoji: true } },
        { type: 'rich_text', elements: [{ type: 'rich_text_quote', elements: [{ type: 'text', text: 'Is Earshot any good for tracking brand mentions? Thinking of switching.' }] }] },
        {
          type: 'section',
          fields: [
            { type: 'mrkdwn', text: '*Author*\nAda Lovelace (@ada) · 1200 followers' },
            { type: 'mrkdwn', text: '*Platform*\nHacker News' },
            { type: 'mrkdwn', text: '*Relevance*\n87/100' },
            { type: 'mrkdwn', text: '*Sentiment*\nNeutral' },
            { type: 'mrkdwn', text: '*Intent*\nQuestion, Buying intent' },
          ],
        },
        {
          type: 'actions',
          block_id: 'mention_actions',
          elements: [
            { type: 'button', action_id: 'open_link_0', text: { type: 'plain_text', text: 'Open post', emoji: true }, url: 'https://news.ycombinator.com/item?id=4242&p=2' },
            { type: 'button', action_id: 'mention_interacted', text: { type: 'plain_text', text: 'Interacted', emoji: true }, value: 'mm_01jd8x3m5c2v7q9r4t6w8y0z1a', style: 'primary' },
          ],
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'Alert “Buyers” · mention.question · dlv_01jd8x3m5c2v7q9r4t6w8y0z1b' }] },
      ],
    });
    await postSlackMessage(bot, 'C0ALERTS01', message);
    expect(slack.messages.at(-1)!.blocks).toEqual(message.blocks);
  });

  it('escapes mrkdwn control characters, and shows a post as written: no mrkdwn bold, italics or links made of it', async () => {
    const message = slackMessage(mentionDelivery(hostile, 'mention.matched'));
    expect(message.text).toBe('New mention: “a&lt;b&gt;&amp;c” on Hacker News');
    expect(message.blocks[1]).toEqual({
      type: 'rich_text',
      elements: [{ type: 'rich_text_quote', elements: [{ type: 'text', text: 'Try <script>alert("x")</script> & compare *bold* _it_ <https://evil.example|click> > quote' }] }],
    });
    const mrkdwnTexts = JSON.stringify(message.blocks.filter((block: any) => block.type !== 'rich_text'));
    expect(mrkdwnTexts).not.toContain('<script>');
    expect(mrkdwnTexts).not.toContain('*bold*');
    await postSlackMessage(bot, 'C0ALERTS01', message);
    expect(slack.messages.at(-1)!.blocks).toEqual(message.blocks);
  });

  it('has no Interacted button on digests, account events and tests, and stays within Block Kit limits', async () => {
    for (const delivery of [digest(3, 40), digest(0, 0), testDelivery, ...accountEvents.map(([event, data]): Delivery => ({ kind: 'event', envelope: envelope(event, data, null) }))]) {
      const message = slackMessage(delivery);
      expect(JSON.stringify(message.blocks)).not.toContain('mention_interacted');
      await postSlackMessage(bot, 'C0GENERAL1', message);
    }
    const huge = slackMessage(digest(200, 200, 'long & <words> '.repeat(40)));
    await postSlackMessage(bot, 'C0GENERAL1', huge);
    const lists = huge.blocks.filter((block: any) => block.type === 'rich_text' && block.elements.length > 1);
    expect(lists.map((block: any) => block.elements[0].elements[0].text)).toEqual(['Needs attention (200)', 'The rest (200)']);
    expect((lists[0] as any).elements.at(-1)).toEqual({ type: 'rich_text_section', elements: [{ type: 'text', text: '…and 192 more' }] });
  });

  it('lists a digest’s two groups with links, and its splits', () => {
    const item = (url: string, text: string) => ({
      type: 'rich_text_section',
      elements: [{ type: 'link', url, text }, { type: 'text', text: '  Reddit · “earshot” · 87/100' }],
    });
    const message = slackMessage(digest(1, 2));
    expect(message.blocks).toEqual([
      { type: 'header', text: { type: 'plain_text', text: 'Daily digest: 3 mentions, 1 needing attention', emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: '2026-11-24 to 2026-11-25' } },
      { type: 'section', fields: [{ type: 'mrkdwn', text: '*By platform*\nReddit 3' }, { type: 'mrkdwn', text: '*By keyword*\n“earshot” 3' }] },
      {
        type: 'rich_text',
        elements: [
          { type: 'rich_text_section', elements: [{ type: 'text', text: 'Needs attention (1)', style: { bold: true } }] },
          { type: 'rich_text_list', style: 'bullet', elements: [item('https://reddit.com/r/x/n0', 'A post about Earshot n #0')] },
        ],
      },
      {
        type: 'rich_text',
        elements: [
          { type: 'rich_text_section', elements: [{ type: 'text', text: 'The rest (2)', style: { bold: true } }] },
          { type: 'rich_text_list', style: 'bullet', elements: [item('https://reddit.com/r/x/r0', 'A post about Earshot r #0'), item('https://reddit.com/r/x/r1', 'A post about Earshot r #1')] },
        ],
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Alert “Daily digest” · digest · dlv_01jd8x3m5c2v7q9r4t6w8y0z1b' }] },
    ]);
  });

  it('writes the note line of an Interacted click', () => {
    expect(interactedNoteLine('Slack', '@grace', new Date('2026-11-25T04:05:09Z'))).toBe('Interacted in Slack by @grace, 2026-11-25 04:05 UTC');
  });
});

describe('Telegram messages', () => {
  let telegram: FakeTelegram;
  let bot: TelegramBot;
  beforeAll(async () => {
    telegram = await startFakeTelegram();
    bot = { apiBase: telegram.url, botToken: telegram.botToken };
  });
  afterAll(() => telegram.close());

  it('shows a mention in Telegram’s HTML, which the Bot API parses back to the plain words', async () => {
    const html = telegramMessage(mentionDelivery());
    expect(html).toBe(
      [
        '<b>Question: “earshot” on Hacker News</b>',
        '<blockquote>Is Earshot any good for tracking brand mentions? Thinking of switching.</blockquote>',
        '<b>Author:</b> Ada Lovelace (@ada) · 1200 followers',
        '<b>Platform:</b> Hacker News',
        '<b>Relevance:</b> 87/100',
        '<b>Sentiment:</b> Neutral',
        '<b>Intent:</b> Question, Buying intent',
        '<a href="https://news.ycombinator.com/item?id=4242&amp;p=2">Open post</a>',
        '<i>Alert “Buyers” · mention.question · dlv_01jd8x3m5c2v7q9r4t6w8y0z1b</i>',
      ].join('\n'),
    );
    await sendTelegramMessage(bot, '123456789', html);
    expect(telegram.messages.at(-1)!.links).toEqual(['https://news.ycombinator.com/item?id=4242&p=2']);
  });

  it('escapes the post, the term and the link so Telegram reads them as written', async () => {
    await sendTelegramMessage(bot, '123456789', telegramMessage(mentionDelivery(hostile)));
    const sent = telegram.messages.at(-1)!;
    expect(sent.plainText).toContain('Question: “a<b>&c” on Hacker News');
    expect(sent.plainText).toContain('Try <script>alert("x")</script> & compare *bold* _it_ <https://evil.example|click> > quote');
    expect(sent.links).toEqual(['https://example.com/p?a=1&b=<2>|3']);
  });

  it('sends digests, account events and tests; a huge digest stays under 4096 characters', async () => {
    for (const delivery of [digest(3, 40), testDelivery, ...accountEvents.map(([event, data]): Delivery => ({ kind: 'event', envelope: envelope(event, data, null) }))]) {
      await sendTelegramMessage(bot, '-1001234567890', telegramMessage(delivery));
    }
    await sendTelegramMessage(bot, '-1001234567890', telegramMessage(digest(500, 500, 'long & <words> '.repeat(40))));
    const sent = telegram.messages.at(-1)!;
    expect(sent.plainText).toContain('Needs attention (500)');
    expect(sent.plainText).toContain('…and 492 more');
    expect(telegram.messages.find((message) => message.plainText.startsWith('Test message'))!.plainText).toContain('Hello from <Earshot> & co');
  });
});

describe('e-mail messages', () => {
  let smtp: FakeSmtp;
  let mailer: Mailer;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    mailer = createMailer({ smtpUrl: smtp.url, from: 'Earshot <alerts@earshot.example>' });
  });
  afterAll(async () => {
    mailer.close();
    await smtp.close();
  });

  it('sends a mention as text and escaped HTML that arrive as written', async () => {
    const message = emailMessage(mentionDelivery(hostile));
    await mailer.sendMail({ to: 'team@customer.example', ...message });
    const received = smtp.messages.at(-1)!;
    expect(received.subject).toBe('Question: “a<b>&c” on Hacker News');
    expect(received.text).toBe(
      [
        'Question: “a<b>&c” on Hacker News',
        '',
        '> Try <script>alert("x")</script> & compare *bold* _it_ <https://evil.example|click> > quote',
        '',
        'Author: Ada Lovelace (@ada) · 1200 followers',
        'Platform: Hacker News',
        'Relevance: 87/100',
        'Sentiment: Neutral',
        'Intent: Question, Buying intent',
        '',
        'Open post: https://example.com/p?a=1&b=<2>|3',
        '',
        '--',
        'Alert “Buyers” · mention.question · dlv_01jd8x3m5c2v7q9r4t6w8y0z1b',
      ].join('\n'),
    );
    expect(received.html).toContain('<h2>Question: “a&lt;b&gt;&amp;c” on Hacker News</h2>');
    expect(received.html).toContain('Try &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; compare');
    expect(received.html).toContain('<a href="https://example.com/p?a=1&amp;b=&lt;2&gt;|3">Open post</a>');
    expect(received.html).not.toContain('<script>');
  });

  it('never makes a non-web post URL a link', () => {
    const { html } = emailMessage(mentionDelivery(mentionRecord({ url: 'javascript:alert(1)' })));
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('<p>Open post</p>');
  });

  it('titles a mention sent under a custom event as a new mention, whatever its name', () => {
    for (const event of ['acme.hot', 'constructor']) expect(emailMessage(mentionDelivery(mentionRecord(), event)).subject).toMatch(/^New mention: /);
  });

  it('says what each account event means', () => {
    for (const [event, data, title, intro] of accountEvents) {
      const message = emailMessage({ kind: 'event', envelope: envelope(event, data, null) });
      expect(message.subject).toBe(title);
      expect(message.text.split('\n').slice(0, 3)).toEqual([title, '', intro]);
    }
    expect(emailMessage({ kind: 'event', envelope: envelope('wallet.low', accountEvents[3][1], null) }).text).toContain('Balance: $3.80\nNext day costs: $0.17');
  });

  it('sends a digest with both lists as links', async () => {
    await mailer.sendMail({ to: 'team@customer.example', ...emailMessage(digest(1, 9)) });
    const received = smtp.messages.at(-1)!;
    expect(received.subject).toBe('Daily digest: 10 mentions, 1 needing attention');
    expect(received.text).toContain('Needs attention (1)\n- A post about Earshot n #0 (Reddit · “earshot” · 87/100)\n  https://reddit.com/r/x/n0\n');
    expect(received.text).toContain('The rest (9)\n');
    expect(received.text).toContain('…and 1 more');
    expect(received.html).toContain('<li><a href="https://reddit.com/r/x/r7">A post about Earshot r #7</a> <small>Reddit · “earshot” · 87/100</small></li>');
  });

  it('asks the owner of a new address to confirm it', async () => {
    const link = 'https://app.example/v1/channels/email/confirm?token=abc&x=<1>';
    await mailer.sendMail({ to: 'new@customer.example', ...confirmationEmail(link, 'Ops <team>') });
    const received = smtp.messages.at(-1)!;
    expect(received.subject).toBe('Confirm Earshot alerts to this address');
    expect(received.text).toContain(`“Ops <team>”`);
    expect(received.text).toContain(`\n${link}\n`);
    expect(received.html).toContain('<a href="https://app.example/v1/channels/email/confirm?token=abc&amp;x=&lt;1&gt;">Confirm to start receiving alerts</a>');
    expect(received.html).toContain('“Ops &lt;team&gt;”');
  });
});
