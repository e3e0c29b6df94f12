import type { SealedColumn } from '../../runtime/sealed-secrets.ts';
import { channelHeadersColumn, channelSecretColumn } from './channel-store.ts';
import { slackBotTokenColumn } from './slack-connection-store.ts';

/** The team subgraph's columns of sealed secrets: start-up seals the values written in clear before migrations 045 and 048. */
export const teamSealedColumns: readonly SealedColumn[] = [channelSecretColumn, channelHeadersColumn, slackBotTokenColumn];
