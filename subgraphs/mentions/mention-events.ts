import { EventEmitter, on } from 'node:events';
import type { Sql } from '../../runtime/database.ts';
import { mentionCreatedChannel } from './mention-store.ts';

interface MentionCreated {
  id: string;
  workspaceId: string;
}

const busByPool = new WeakMap<Sql, Promise<EventEmitter>>();

/**
 * One LISTEN per process fans out to every subscriber, so any process that
 * stores a mention (a worker, another host) wakes every subscription.
 */
function mentionBus(sql: Sql): Promise<EventEmitter> {
  let bus = busByPool.get(sql);
  if (!bus) {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    bus = sql
      .listen(mentionCreatedChannel, (payload) => emitter.emit('created', JSON.parse(payload) as MentionCreated))
      .then(() => emitter);
    busByPool.set(sql, bus);
  }
  return bus;
}

/** Ids of mentions created in the workspace from now on, until the consumer stops. */
export async function* mentionsCreatedIn(sql: Sql, workspaceId: string): AsyncGenerator<string> {
  const bus = await mentionBus(sql);
  for await (const [event] of on(bus, 'created') as AsyncIterable<[MentionCreated]>) {
    if (event.workspaceId === workspaceId) yield event.id;
  }
}
