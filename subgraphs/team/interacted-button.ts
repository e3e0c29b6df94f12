import type { Queryable } from '../../runtime/database.ts';
import { markPostMentionsDone } from '../mentions/index.ts';
import { interactedNoteLine } from './delivery-content.ts';

/** A click on an alert's Interacted button, as a chat app's handler read it from its own request. */
export interface InteractedClick {
  app: 'Slack' | 'Telegram';
  /** The clicker, as the app names them. */
  who: string;
  at: Date;
  /** The workspaces the chat clicked in belongs to: only their mentions are touched. */
  workspaceIds: readonly string[];
  /** The mentions the clicked buttons name. */
  mentionIds: readonly string[];
}

/**
 * What an Interacted click does, whichever chat app it came from (spec 6.4):
 * every mention of the clicked post in those workspaces is marked done, and
 * the clicked mention's note gets a line saying in which app, who and when.
 * Returns the mentions marked done; each app answers its platform itself.
 */
export async function recordInteractedClick(sql: Queryable, click: InteractedClick): Promise<string[]> {
  const line = interactedNoteLine(click.app, click.who, click.at);
  const done: string[] = [];
  for (const mentionId of click.mentionIds) {
    for (const workspaceId of click.workspaceIds) done.push(...(await markPostMentionsDone(sql, workspaceId, mentionId, line)));
  }
  return done;
}
