import { type Delivery, type MessageContent, describeDelivery, excerpt } from './delivery-content.ts';
import { type SlackMessage, mentionInteractedAction } from './slack-api.ts';

/**
 * A delivery as a Slack Block Kit message: a header, the post's words as a
 * quote, the facts as fields, a link button to the post and, on instant
 * mention alerts, the Interacted button (`mention_interacted`, value the
 * mention id) the interactivity endpoint acts on. Sizes stay inside Block
 * Kit's limits (header 150 characters, section text 3000, field 2000).
 */

/** Slack's mrkdwn has three control characters; everything else is literal. */
const escapeMrkdwn = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A URL inside `<url|label>`: `|` and angle brackets would end it early. */
const linkTarget = (url: string): string => escapeMrkdwn(url.replace(/\|/g, '%7C').replace(/</g, '%3C').replace(/>/g, '%3E'));

const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const plainText = (text: string, max: number) => ({ type: 'plain_text', text: excerpt(text, max), emoji: true });

const sectionTextLimit = 3000;

function sectionBlocks(content: MessageContent): Record<string, unknown>[] {
  return content.sections.map((section) => {
    let text = `*${escapeMrkdwn(section.heading)}*`;
    let more = section.more;
    for (const item of section.items) {
      const line = `\n• <${linkTarget(item.url)}|${escapeMrkdwn(item.text)}>  ${escapeMrkdwn(item.detail)}`;
      // Room is kept for the "and N more" line.
      if (text.length + line.length > sectionTextLimit - 40) more++;
      else text += line;
    }
    if (more) text += `\n…and ${more} more`;
    return { type: 'section', text: mrkdwn(text) };
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
  // Escaping at most quintuples a character (`&` → `&amp;`), so 600 characters stay under the section limit.
  if (content.quote) blocks.push({ type: 'section', text: mrkdwn(`>${escapeMrkdwn(excerpt(content.quote, 590))}`) });
  if (content.facts.length) {
    blocks.push({ type: 'section', fields: content.facts.slice(0, 10).map((fact) => mrkdwn(`*${escapeMrkdwn(fact.label)}*\n${escapeMrkdwn(excerpt(fact.value, 390))}`)) });
  }
  blocks.push(...sectionBlocks(content), ...buttons(content));
  blocks.push({ type: 'context', elements: [mrkdwn(escapeMrkdwn(excerpt(content.footer, 600)))] });
  return { text: escapeMrkdwn(content.title), blocks };
}
