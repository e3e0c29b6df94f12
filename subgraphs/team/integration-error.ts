import { UpstreamError } from '../../runtime/upstream-http.ts';

/**
 * Slack, Telegram or the SMTP server refused or failed a call. `transient`
 * says whether the same call may succeed later (rate limits, outages,
 * time-outs, SMTP 4xx) and is worth a retry, or never will (a revoked token,
 * an unknown channel or chat, an SMTP 5xx such as 550 unknown mailbox), so a
 * delivery fails at once as spec 3.4 wants for a 4xx.
 */
export class IntegrationError extends UpstreamError {
  constructor(
    platform: 'slack' | 'telegram' | 'email',
    reason: string,
    readonly transient: boolean,
    /** The service's own name for the failure: Slack's `error`, Telegram's `error_code`, the SMTP reply code or nodemailer's code. `status` stays HTTP's. */
    readonly code: string,
    details: { status?: number; retryAfterSeconds?: number } = {},
  ) {
    super(platform, reason, details.status, details.retryAfterSeconds);
  }
}
