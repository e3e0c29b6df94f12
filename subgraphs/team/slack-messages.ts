import { type Delivery, type MessageContent, describeDelivery, excerpt } from './delivery-content.ts';
import { type SlackMessage, mentionInteractedAction } from './slack-api.ts';

/**
 * A delivery as a Slack Block Kit message: a header, the post's words as a
 * quote, the facts as fields, a link button to the post and, on instant
 * mention alerts, the Interacted button (`mention_interacted`, value the
 * mention id) the interactivity endpoint acts on. Sizes stay inside Block
 * Kit's limits (header 150 characters, section text 3000, field 2000).
 *
 * Words from outside (a post, a digest's list of posts) go in `rich_text`
 * blocks, whose text elements Slack shows as written: in mrkdwn a post's
 * `*args`, `_private_` or `~/path~` would turn bold, italic or struck
 * through, and mrkdwn has no escape for them.
 */

/** Slack's mrkdwn has three control characters; everything else is literal. */
const escapeMrkdwn = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const plainText = (text: string, max: number) => ({ type: 'plain_text', text: excerpt(text, max), emoji: true });
const richText = (elements: Record<string, unknown>[]) => ({ type: 'rich_text', elements });
const literal = (text: string, style?: { bold: true }) => ({ type: 'text', text, ...(style ? { style } : {}) });

/** Only web links become link elements (Slack refuses others); the words of any other stay text. */
const linked = (url: string, text: string) => (/^https?:\/\//i.test(url) ? { type: 'link', url, text } : literal(text));

function sectionBlocks(content: MessageContent): Record<string, unknown>[] {
  return content.sections.map((section) => {
    const items = section.items.map((item) => ({ type: 'rich_text_section', elements: [linked(item.url, item.text), literal(`  ${item.detail}`)] }));
    const elements: Record<string, unknown>[] = [{ type: 'rich_text_section', elements: [literal(section.heading, { bold: true })] }, { type: 'rich_text_list', style: 'bullet', elements: items }];
    if (section.more) elements.push({ type: 'rich_text_section', elements: [literal(`…and ${section.more} more`)] });
    return richText(elements);
  });
}

function buttons(content: MessageContent): Record<string, unknown>[] {
  const elements: Record<string, unknown>[] = content.links
    .filter((link) => link.url.length <= 3000)
    .map((link, index) => ({ type: 'button', action_id: `open_link_${index}`, text: plainText(link.label, 75), url: link.url }));
  if (content.interactedMentionId) {
    elements.push({ type: 'button', action_id: mentionInteractedAction, text: plainText('Interacted', 75), value: content.interactedMentionId, style: 'primary' });
  }
  return elements.length ? [{ type: 'actions', block_id: 'mention_actions', elements }] : [];
}

export function slackMessage(delivery: Delivery): SlackMessage {
  const content = describeDelivery(delivery);
  const blocks: Record<string, unknown>[] = [{ type: 'header', text: plainText(content.title, 150) }];
  if (content.intro) blocks.push({ type: 'section', text: mrkdwn(escapeMrkdwn(excerpt(content.intro, 600))) });
  if (content.quote) blocks.push(richText([{ type: 'rich_text_quote', elements: [literal(excerpt(content.quote, 600))] }]));
  if (content.facts.length) {
    blocks.push({ type: 'section', fields: content.facts.slice(0, 10).map((fact) => mrkdwn(`*${escapeMrkdwn(fact.label)}*\n${escapeMrkdwn(excerpt(fact.value, 390))}`)) });
  }
  blocks.push(...sectionBlocks(content), ...buttons(content));
  blocks.push({ type: 'context', elements: [mrkdwn(escapeMrkdwn(excerpt(content.footer, 600)))] });
  return { text: escapeMrkdwn(content.title), blocks };
}
