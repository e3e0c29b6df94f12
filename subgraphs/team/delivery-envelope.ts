/** The `alert` of an envelope: the rule that sent it (`id` null for a dashboard test), null for account events. */
export type EnvelopeAlert = { id: string | null; name: string } | null;

/**
 * The JSON text of a webhook request (spec 6.1), built once when the
 * delivery is enqueued and stored: every retry resends these bytes.
 */
export function envelopeBody(delivery: { id: string; event: string; createdAt: Date; alert: EnvelopeAlert; data: unknown }): string {
  return JSON.stringify({ id: delivery.id, event: delivery.event, createdAt: delivery.createdAt.toISOString(), alert: delivery.alert, data: delivery.data });
}
