import nodemailer from 'nodemailer';
import { publicUrl } from '../../runtime/config.ts';
import { domainError } from '../domain-error.ts';
import { IntegrationError } from './integration-error.ts';
import { hashSecretToken, newSecretToken } from './secret-token.ts';

/**
 * E-mail over SMTP with nodemailer: the e-mail channel and its double
 * opt-in, sign-in links, invitations and owner e-mails.
 *
 * - `EARSHOT_SMTP_URL`: `smtp://user:pass@host:port` (`smtps://` for implicit
 *   TLS; a plain `smtp://` server that offers STARTTLS is upgraded); without
 *   it e-mail is `email_not_configured`.
 * - `EARSHOT_MAIL_FROM`: the `From` of every message, default `Earshot <earshot@localhost>`.
 */
export interface MailSettings {
  smtpUrl: string;
  from: string;
}

export function mailSettings(env: NodeJS.ProcessEnv): MailSettings | null {
  const smtpUrl = env.EARSHOT_SMTP_URL;
  if (!smtpUrl) return null;
  return { smtpUrl, from: env.EARSHOT_MAIL_FROM || 'Earshot <earshot@localhost>' };
}

/** `mailSettings`, or the 501 `email_not_configured` a request needing e-mail answers. */
export function requireMailSettings(env: NodeJS.ProcessEnv): MailSettings {
  const settings = mailSettings(env);
  if (!settings) throw domainError('email_not_configured', 'E-mail is not configured on this install: set EARSHOT_SMTP_URL');
  return settings;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header fields, such as `List-Unsubscribe`. */
  headers?: Record<string, string>;
  /** `<…@…>`: a retry of the same delivery is the same message to the reader's mail program. */
  messageId?: string;
}

export interface Mailer {
  /** Hands one message to the SMTP server; answers the `Message-ID` it was sent with. */
  sendMail(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

/** nodemailer's codes for failures no retry gets past: bad credentials or configuration, a message the server will never take. */
const permanentMailerCodes = new Set(['EAUTH', 'ENOAUTH', 'ECONFIG', 'EENVELOPE', 'EMESSAGE', 'EREQUIRETLS']);

/**
 * SMTP says itself whether to try again: a 4xx reply is a temporary refusal
 * (greylisting, a full mailbox, a busy server), a 5xx a final one (550
 * unknown mailbox, 535 bad credentials). Without a reply, a connection
 * that failed or timed out is transient.
 */
function classifyMailFailure(error: unknown): IntegrationError {
  const failure = error as Error & { code?: string; responseCode?: number; response?: string };
  const reason = failure.response ?? failure.message ?? String(error);
  if (typeof failure.responseCode === 'number') {
    return new IntegrationError('email', reason, failure.responseCode < 500, String(failure.responseCode));
  }
  const code = failure.code ?? 'ESOCKET';
  return new IntegrationError('email', reason, !permanentMailerCodes.has(code), code);
}

/**
 * Whether TLS on this server is opportunistic: an `smtp://` address without
 * `requireTLS=true` upgrades when the server offers STARTTLS and goes on in
 * clear when it does not. Its certificate is then not checked (RFC 7435):
 * whoever could forge one could as well strip the STARTTLS offer, and the
 * self-signed certificates of local relays and test servers (smtp-server's
 * built-in one among them) otherwise failed every message.
 * `smtps://`, `requireTLS=true` or `tls.rejectUnauthorized=true` in the
 * address keep the check.
 */
function opportunisticTls(smtpUrl: string): boolean {
  // Read as nodemailer reads it: a password need not be URL-escaped there, so the address may not parse as a WHATWG URL.
  const query = new URLSearchParams(smtpUrl.includes('?') ? smtpUrl.slice(smtpUrl.indexOf('?') + 1) : '');
  return /^smtp:/i.test(smtpUrl) && query.get('requireTLS') !== 'true';
}

/**
 * A mailer over a pool of SMTP connections (nodemailer's `pool`): messages
 * reuse open connections, at most 5 at once and 100 messages each, instead
 * of a connection (and its greeting, TLS and AUTH) per message.
 */
export function createMailer(settings: MailSettings, options: { timeoutMs?: number } = {}): Mailer {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const transport = nodemailer.createTransport(
    {
      url: settings.smtpUrl,
      pool: true,
      maxConnections: 5,
      maxMessages: 100,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs * 3,
      // Options in the address's query win over these.
      ...(opportunisticTls(settings.smtpUrl) ? { tls: { rejectUnauthorized: false } } : {}),
    },
    { from: settings.from },
  );
  return {
    async sendMail(mail) {
      try {
        const info = await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers, messageId: mail.messageId });
        return { messageId: info.messageId };
      } catch (error) {
        throw classifyMailFailure(error);
      }
    },
    close() {
      transport.close();
    },
  };
}

const sharedMailers = new Map<string, Mailer>();

/** The process's mailer for these settings, made once, so every send of the process shares its connections. */
export function sharedMailer(settings: MailSettings, options: { timeoutMs?: number } = {}): Mailer {
  const key = JSON.stringify([settings.smtpUrl, settings.from, options.timeoutMs ?? null]);
  let mailer = sharedMailers.get(key);
  if (!mailer) {
    mailer = createMailer(settings, options);
    sharedMailers.set(key, mailer);
  }
  return mailer;
}

/** Closes the shared mailers' connections, as the process stops; a send after that opens new ones. */
export async function closeSharedMailers(): Promise<void> {
  for (const mailer of sharedMailers.values()) mailer.close();
  sharedMailers.clear();
}

/**
 * How long a request waits for the mail server to connect and greet: every
 * request is answered within the operating contract's 5 s, past which the
 * public server answers that the database is not answering, so a mail
 * server that takes the connection and stays silent must be given up first.
 */
const requestMailTimeoutMs = 3000;
const mailRetryAfterSeconds = 60;

/**
 * Sends one message while a request waits for it (a channel's confirmation,
 * a sign-in link, an invitation). A final SMTP reply (5xx) is about the
 * address: `validation_error` on `field`. Anything else (our credentials,
 * the server being away or silent) is not the caller's to fix: `upstream_unavailable`.
 */
export async function sendMailNow(settings: MailSettings, mail: OutgoingMail, field: string, what: string): Promise<void> {
  try {
    await sharedMailer(settings, { timeoutMs: requestMailTimeoutMs }).sendMail(mail);
  } catch (error) {
    if (!(error instanceof IntegrationError)) throw error;
    if (!error.transient && /^5\d\d$/.test(error.code)) throw domainError('validation_error', `${field}: the mail server refused it (${error.message})`, { field }, error);
    // Retryable, so it says when to come back (spec 7: `retryAfterSeconds` on retryable errors, mirrored by `Retry-After`).
    throw domainError('upstream_unavailable', `The ${what} could not be sent: ${error.message}`, { retryAfterSeconds: mailRetryAfterSeconds }, error);
  }
}

/**
 * A double opt-in token for an e-mail channel: the token goes into the
 * confirmation link, only its hash is stored, so a leaked table confirms
 * nothing.
 */
export function newConfirmationToken(): { token: string; hash: string } {
  const token = newSecretToken();
  return { token, hash: hashConfirmationToken(token) };
}

export const hashConfirmationToken = (token: string): string => hashSecretToken(token).toString('hex');

/** The public route the recipient opens to confirm an e-mail channel. */
export const emailConfirmationPath = '/v1/channels/email/confirm';

export function emailConfirmationLink(env: NodeJS.ProcessEnv, token: string): string {
  return `${publicUrl(env)}${emailConfirmationPath}?token=${encodeURIComponent(token)}`;
}
