import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A channel secret: `whsec_` and 32 random bytes in base64, the form Standard Webhooks libraries take as is. */
export const newChannelSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

const hexHmac = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('hex');

/**
 * The signature headers of one webhook request (spec 6.1):
 * `X-Mentions-Signature`, lowercase hex HMAC-SHA256 of the raw body keyed
 * with the whole secret string; `X-Mentions-Signature-V2`,
 * `t=<unix seconds>,v1=<hex HMAC of "<t>.<body>">` with the same key, which
 * binds the time so a receiver can refuse replays; and the Standard
 * Webhooks headers, keyed with the secret's decoded bytes, so that the
 * official verifiers accept the request unmodified.
 */
export function signatureHeaders(secret: string, deliveryId: string, body: string, at: Date): Record<string, string> {
  const seconds = Math.floor(at.getTime() / 1000);
  return {
    'x-mentions-signature': hexHmac(secret, body),
    'x-mentions-signature-v2': `t=${seconds},v1=${hexHmac(secret, `${seconds}.${body}`)}`,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': new Webhook(secret).sign(deliveryId, new Date(seconds * 1000), body),
  };
}
