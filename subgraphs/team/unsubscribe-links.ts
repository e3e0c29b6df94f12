import { createHmac } from 'node:crypto';
import { publicUrl } from '../../runtime/config.ts';
import type { Queryable } from '../../runtime/database.ts';
import type { SecretBox } from '../../runtime/secret-box.ts';
import { deploymentSecret } from '../../runtime/gateway-secret.ts';
import { sameSecret } from '../../runtime/same-secret.ts';

/** The public route an owner e-mail's unsubscribe link and its `List-Unsubscribe` header name. */
export const unsubscribePath = '/v1/me/notifications/unsubscribe';
/** The public route a channel e-mail's unsubscribe link and its `List-Unsubscribe` header name. */
export const emailChannelUnsubscribePath = '/v1/channels/email/unsubscribe';

/** What a link unsubscribes from: a person from owner e-mails, or an e-mail channel's address from the channel. */
type UnsubscribeSubject = 'owner-emails' | 'email-channel';

const signature = (secret: string, subject: UnsubscribeSubject, id: string) => createHmac('sha256', secret).update(`${subject} ${id}`).digest('base64url');

/**
 * The token of an unsubscribe link: the id it names (a user's, a channel's)
 * and an HMAC of it with a secret of the deployment. Nothing is stored per
 * mail, and the link keeps working however old the mail is, as unsubscribe
 * links must (RFC 8058).
 */
async function unsubscribeToken(sql: Queryable, secrets: SecretBox, subject: UnsubscribeSubject, id: string): Promise<string> {
  return `${id}.${signature(await deploymentSecret(sql, secrets, 'unsubscribe-links'), subject, id)}`;
}

const linkOf = async (sql: Queryable, secrets: SecretBox, env: NodeJS.ProcessEnv, path: string, subject: UnsubscribeSubject, id: string) =>
  `${publicUrl(env)}${path}?token=${encodeURIComponent(await unsubscribeToken(sql, secrets, subject, id))}`;

/** The id a token names when its signature holds for `subject`, compared in constant time; undefined otherwise. */
async function idOfUnsubscribeToken(sql: Queryable, secrets: SecretBox, subject: UnsubscribeSubject, token: string): Promise<string | undefined> {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const id = token.slice(0, dot);
  const expected = signature(await deploymentSecret(sql, secrets, 'unsubscribe-links'), subject, id);
  return sameSecret(token.slice(dot + 1), expected) ? id : undefined;
}

export const unsubscribeLink = (sql: Queryable, secrets: SecretBox, env: NodeJS.ProcessEnv, userId: string) =>
  linkOf(sql, secrets, env, unsubscribePath, 'owner-emails', userId);

export const userOfUnsubscribeToken = (sql: Queryable, secrets: SecretBox, token: string) => idOfUnsubscribeToken(sql, secrets, 'owner-emails', token);

export const emailChannelUnsubscribeLink = (sql: Queryable, secrets: SecretBox, env: NodeJS.ProcessEnv, channelId: string) =>
  linkOf(sql, secrets, env, emailChannelUnsubscribePath, 'email-channel', channelId);

export const channelOfUnsubscribeToken = (sql: Queryable, secrets: SecretBox, token: string) => idOfUnsubscribeToken(sql, secrets, 'email-channel', token);

/** The `List-Unsubscribe` header fields of a mail whose link is `link`: one click, no other credential (RFC 8058). */
export const listUnsubscribeHeaders = (link: string) => ({ 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
