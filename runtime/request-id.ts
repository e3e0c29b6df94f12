import { randomUUID } from 'node:crypto';

/** Inbound ids are honoured when they are 8 to 64 URL-safe characters (spec 4, part 8). */
export const acceptableRequestId = /^[A-Za-z0-9_-]{8,64}$/;

export function requestIdFrom(inbound: string | null | undefined): string {
  return inbound && acceptableRequestId.test(inbound) ? inbound : `req_${randomUUID().replaceAll('-', '')}`;
}
