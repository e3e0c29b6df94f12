import { createHmac } from 'node:crypto';
import { publicUrl } from '../../runtime/config.ts';
import type { Queryable } from '../../runtime/database.ts';
import type { SecretBox } from '../../runtime/secret-box.ts';
import { deploymentSecret } from '../../runtime/gateway-secret.ts';
import { sameSecret } from '../../runtime/same-secret.ts';

/** The public route an owner e-mail's unsubscribe link and its `List-Unsubscribe` header name. */
export const unsubscribePath = '/v1/me/notifications/unsubscribe';

const signature = (secret: string, userId: string) => createHmac('sha256', secret).update(`owner-emails ${userId}`).digest('base64url');

/**
 * The token of a user's unsubscribe link: the user id and an HMAC of it with
 * a secret of the deployment. Nothing is stored per mail, and the link keeps
 * working however old the mail is, as unsubscribe links must (RFC 8058).
 */
async function unsubscribeToken(sql: Queryable, secrets: SecretBox, userId: string): Promise<string> {
  return `${userId}.${signature(await deploymentSecret(sql, secrets, 'unsubscribe-links'), userId)}`;
}

export async function unsubscribeLink(sql: Queryable, secrets: SecretBox, env: NodeJS.ProcessEnv, userId: string): Promise<string> {
  return `${publicUrl(env)}${unsubscribePath}?token=${encodeURIComponent(await unsubscribeToken(sql, secrets, userId))}`;
}

/** The user a token names when its signature holds, compared in constant time; undefined otherwise. */
export async function userOfUnsubscribeToken(sql: Queryable, secrets: SecretBox, token: string): Promise<string | undefined> {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const userId = token.slice(0, dot);
  const expected = signature(await deploymentSecret(sql, secrets, 'unsubscribe-links'), userId);
  return sameSecret(token.slice(dot + 1), expected) ? userId : undefined;
}
