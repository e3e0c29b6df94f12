import { hash, randomBytes } from 'node:crypto';

/**
 * A single-use token mailed in a link (sign-in links, e-mail confirmations,
 * invitations): 256 random bits, base64url, so it travels in a URL as is.
 */
export const newSecretToken = (): string => randomBytes(32).toString('base64url');

/**
 * What is stored of a secret Earshot made (such a token, an API key, an
 * OAuth code or token): its SHA-256. Each carries at least 256 random bits,
 * so a slow hash would buy nothing, and a leaked table opens nothing.
 */
export const hashSecretToken = (token: string): Buffer => hash('sha256', token, 'buffer');
