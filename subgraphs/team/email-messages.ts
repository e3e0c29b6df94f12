import { type ContentLink, type Delivery, describeDelivery, excerpt, utc } from './delivery-content.ts';
import type { OutgoingMail } from './mailer.ts';

/**
 * A delivery as an e-mail, a plain-text part and an HTML part saying the
 * same; every value from outside (post text, names, terms, URLs) is
 * HTML-escaped in the HTML part.
 */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Only web links become `href`s: a `javascript:` post URL stays text. */
const safeHref = (url: string): string | null => (/^https?:\/\//i.test(url) ? escapeHtml(url) : null);

const anchor = (url: string, label: string) => {
  const href = safeHref(url);
  return href ? `<a href="${href}">${escapeHtml(label)}</a>` : escapeHtml(label);
};

const page = (title: string, body: string[]) =>
  [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family: -apple-system, Segoe UI, Helvetica, Arial, sans-serif; line-height: 1.45; color: #1d1d1f">',
    ...body,
    '</body></html>',
  ].join('\n');

export type EmailMessage = Pick<OutgoingMail, 'subject' | 'text' | 'html'>;

/**
 * `workspaceName` says which workspace a message is about, for people in
 * several (owner e-mails); `dashboardLink` is the dashboard page where the
 * reader acts on it (owner e-mails); `unsubscribe` adds why the reader gets
 * it and the link that stops it.
 */
export interface EmailMessageOptions {
  workspaceName?: string;
  dashboardLink?: ContentLink;
  unsubscribe?: { why: string; link: string };
}

export function emailMessage(delivery: Delivery, options: EmailMessageOptions = {}): EmailMessage {
  const described = describeDelivery(delivery);
  const content = {
    ...described,
    facts: options.workspaceName ? [{ label: 'Workspace', value: options.workspaceName }, ...described.facts] : described.facts,
    links: options.dashboardLink ? [...described.links, options.dashboardLink] : described.links,
  };
  // A subject is one header line: no line breaks from a keyword or a post.
  const subject = excerpt(content.title, 200);
  const text: string[] = [content.title, ''];
  const html: string[] = [`<h2>${escapeHtml(content.title)}</h2>`];
  if (content.intro) {
    text.push(content.intro, '');
    html.push(`<p>${escapeHtml(content.intro)}</p>`);
  }
  if (content.quote) {
    text.push(`> ${content.quote}`, '');
    html.push(`<blockquote style="border-left: 3px solid #ccc; margin: 0; padding-left: 12px">${escapeHtml(content.quote)}</blockquote>`);
  }
  if (content.facts.length) {
    text.push(...content.facts.map((fact) => `${fact.label}: ${fact.value}`), '');
    html.push('<table>', ...content.facts.map((fact) => `<tr><th align="left">${escapeHtml(fact.label)}</th><td>${escapeHtml(fact.value)}</td></tr>`), '</table>');
  }
  for (const section of content.sections) {
    text.push(section.heading, ...section.items.map((item) => `- ${item.text} (${item.detail})\n  ${item.url}`));
    html.push(`<h3>${escapeHtml(section.heading)}</h3>`, '<ul>', ...section.items.map((item) => `<li>${anchor(item.url, item.text)} <small>${escapeHtml(item.detail)}</small></li>`), '</ul>');
    if (section.more) {
      text.push(`…and ${section.more} more`);
      html.push(`<p>…and ${section.more} more</p>`);
    }
    text.push('');
  }
  if (content.links.length) {
    text.push(...content.links.map((link) => `${link.label}: ${link.url}`), '');
    html.push(`<p>${content.links.map((link) => anchor(link.url, link.label)).join(' · ')}</p>`);
  }
  text.push('--', content.footer);
  html.push(`<p style="color: #6e6e73; font-size: 12px">${escapeHtml(content.footer)}</p>`);
  if (options.unsubscribe) {
    text.push(options.unsubscribe.why, `Unsubscribe: ${options.unsubscribe.link}`);
    html.push(`<p style="color: #6e6e73; font-size: 12px">${escapeHtml(options.unsubscribe.why)} ${anchor(options.unsubscribe.link, 'Unsubscribe')}</p>`);
  }
  return { subject, text: text.join('\n'), html: page(subject, html) };
}

/** The double opt-in message of a new e-mail channel: nothing is sent to the address until its owner opens `link`. */
export function confirmationEmail(link: string, channelLabel: string): EmailMessage {
  const subject = 'Confirm Earshot alerts to this address';
  const why = `Someone added this address as the e-mail channel “${channelLabel}” in Earshot.`;
  const ignore = 'If that was not you, ignore this message: nothing will be sent to this address.';
  return {
    subject,
    text: [why, '', 'Confirm to start receiving alerts:', link, '', ignore].join('\n'),
    html: page(subject, [`<p>${escapeHtml(why)}</p>`, `<p>${anchor(link, 'Confirm to start receiving alerts')}</p>`, `<p>${escapeHtml(ignore)}</p>`]),
  };
}

/** An invitation to join a workspace: the link opens the dashboard's invitation page, where the invitee accepts or declines. */
export function invitationEmail(invitation: { workspaceName: string; inviterName: string | null; role: string; expiresAt: Date }, link: string): EmailMessage {
  // A subject is one header line: nothing from a name may break it.
  const subject = excerpt(`${invitation.inviterName ?? 'Someone'} invited you to ${invitation.workspaceName} on Earshot`, 200);
  const what = `${invitation.inviterName ?? 'Someone'} invited you to join the workspace “${invitation.workspaceName}” on Earshot as ${invitation.role === 'admin' ? 'an admin' : `a ${invitation.role}`}.`;
  const until = `The invitation works once, until ${utc(invitation.expiresAt.toISOString())}.`;
  const ignore = 'If you do not want to join, decline it on that page or ignore this message.';
  return {
    subject,
    text: [what, '', 'Accept or decline it here:', link, '', until, ignore].join('\n'),
    html: page(subject, [`<p>${escapeHtml(what)}</p>`, `<p>${anchor(link, 'Accept or decline the invitation')}</p>`, `<p>${escapeHtml(until)} ${escapeHtml(ignore)}</p>`]),
  };
}
