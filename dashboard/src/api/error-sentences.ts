import { ApiError } from './api-error';

/**
 * A plain sentence for each of the spec's error codes (part 7), said when the
 * API gave no message of its own; the code is for programs, not for people.
 */
const sentences: Record<string, string> = {
  unauthorized: 'Your session has ended. Sign in again to go on.',
  forbidden: 'Your role in this workspace does not allow this.',
  read_only_key: 'This key can only read.',
  validation_error: 'Something in the form is not valid. Check it and try again.',
  not_found: 'This no longer exists, or was never here.',
  invalid_cursor: 'The list changed meanwhile. Reload the page to read it again.',
  payload_too_large: 'That is too large to send.',
  rate_limited: 'Too many requests at once. Wait a moment and try again.',
  duplicate_keyword: 'That keyword is already tracked.',
  insufficient_balance: 'The wallet’s balance is too low. Top it up first.',
  keyword_limit_reached: 'This workspace tracks as many keywords as it may.',
  billing_not_configured: 'Payments are not set up on this Earshot.',
  order_not_credited: 'The payment has not been credited yet.',
  schedule_required: 'A digest needs a schedule.',
  unknown_channel: 'One of the chosen channels no longer exists.',
  not_a_digest: 'Only a digest rule can be run now.',
  hourly_email_unsupported: 'E-mail channels take daily or weekly digests only.',
  slack_not_connected: 'Connect Slack first.',
  slack_not_configured: 'Slack is not set up on this Earshot.',
  telegram_not_configured: 'Telegram is not set up on this Earshot.',
  email_not_configured: 'Sending e-mail is not set up on this Earshot.',
  invalid_assignee: 'That person is not a member of this workspace.',
  classification_pending: 'This mention is still being scored. Try again in a moment.',
  invalid_member: 'That person is not a member of this workspace.',
  already_member: 'That person is already a member.',
  last_owner: 'A workspace needs at least one owner.',
  duplicate_segment: 'A segment of that name already exists.',
  filter_too_complex: 'That filter is too complex. Make it simpler.',
  duplicate_view: 'A view of that name already exists.',
  duplicate_group: 'A group of that name already exists.',
  default_group: 'The default group cannot be changed that way.',
  default_group_context: 'The default group takes no context.',
  group_changed: 'The group changed meanwhile. Reload the page and try again.',
  invalid_token: 'This link is invalid, used or expired.',
  upstream_unavailable: 'A platform Earshot relies on did not answer. Try again later.',
  network_error: 'Earshot could not be reached. Check the connection and try again.',
};

const generic = 'Something went wrong. Try again, and if it goes on, tell the workspace’s owner.';

/**
 * What a failure says to a person: the API's own message when it gave one,
 * else the plain sentence for its code; never the bare code.
 */
export function errorSentence(error: unknown): string {
  if (!(error instanceof Error)) return typeof error === 'string' && error ? error : generic;
  const code = error instanceof ApiError ? error.code : undefined;
  const message = error.message.trim();
  if (message && message !== code) return message;
  return (code && sentences[code]) ?? generic;
}
