import { type Delivery, describeDelivery, excerpt } from './delivery-content.ts';
import type { TelegramReplyMarkup } from './telegram-api.ts';

/**
 * A delivery as a Telegram message in the Bot API's HTML parse mode: only
 * its tag subset (`b`, `i`, `a`, `blockquote`), and every `&`, `<`, `>` and
 * quote of the text escaped, since Telegram refuses a message it cannot
 * parse. Lengths keep the visible text under Telegram's 4096 characters.
 */
const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const link = (url: string, label: string) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;

export function telegramMessage(delivery: Delivery): string {
  const content = describeDelivery(delivery);
  const lines = [`<b>${escapeHtml(excerpt(content.title, 200))}</b>`];
  if (content.intro) lines.push(escapeHtml(excerpt(content.intro, 600)));
  if (content.quote) lines.push(`<blockquote>${escapeHtml(excerpt(content.quote, 1000))}</blockquote>`);
  for (const fact of content.facts) lines.push(`<b>${escapeHtml(fact.label)}:</b> ${escapeHtml(excerpt(fact.value, 300))}`);
  for (const section of content.sections) {
    lines.push('', `<b>${escapeHtml(section.heading)}</b>`);
    for (const item of section.items) lines.push(`• ${link(item.url, item.text)} · ${escapeHtml(item.detail)}`);
    if (section.more) lines.push(`…and ${section.more} more`);
  }
  if (content.links.length) lines.push(content.links.map((target) => link(target.url, target.label)).join(' · '));
  lines.push(`<i>${escapeHtml(excerpt(content.footer, 300))}</i>`);
  return lines.join('\n');
}

/** The `callback_data` of the Interacted button starts with this; the mention id follows (40 bytes in all; Telegram allows 64). */
const interactedCallbackPrefix = 'interacted:';

/** The mention an Interacted button's `callback_data` names; null for any other data. */
export function interactedMentionOf(callbackData: string): string | null {
  return callbackData.startsWith(interactedCallbackPrefix) ? callbackData.slice(interactedCallbackPrefix.length) || null : null;
}

/** The buttons under a delivery's message: on instant mention alerts the Interacted button (spec 6.4), nothing on the rest. */
export function telegramReplyMarkup(delivery: Delivery): TelegramReplyMarkup | undefined {
  const mentionId = describeDelivery(delivery).interactedMentionId;
  return mentionId ? { inline_keyboard: [[{ text: 'Interacted', callback_data: `${interactedCallbackPrefix}${mentionId}` }]] } : undefined;
}
