import path from 'node:path';

/** Everything a process reads from its environment, read once, in one place. */
export interface EarshotConfig {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  /** Shared secret the gateway signs subgraph requests with; when unset, one is kept in the database. */
  gatewaySecret: string | undefined;
  /**
   * The key that seals secrets Earshot reads back (EARSHOT_SECRETS_KEY, base64 of 32 bytes); when unset, a key
   * file in `dataDir` holds it (runtime/secret-box.ts).
   */
  secretsKey: Buffer | undefined;
  rateLimitPerMinute: number;
  maxBodyBytes: number;
  /** Where a gateway-only process finds each subgraph (`--role gateway`). */
  subgraphUrls: Partial<Record<SubgraphName, string>>;
  /** Where a facade-only process finds the gateway (`--role facade`). */
  gatewayUrl: string | undefined;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Base poll interval (EARSHOT_POLL_INTERVAL_S, default 300, above 0): empty polls double it. */
  pollIntervalSeconds: number;
  /** Seconds between attempts of a webhook delivery (EARSHOT_RETRY_DELAY_S, default 30; spec 3.4). */
  retryDelaySeconds: number;
  /** How long a webhook endpoint has to answer (EARSHOT_WEBHOOK_TIMEOUT_MS, default 10 s as spec 8 says; tests shorten it). */
  webhookTimeoutMs: number;
  /** How long an OAuth access token works (EARSHOT_OAUTH_ACCESS_TOKEN_S, default 3600); refresh tokens renew it. */
  oauthAccessTokenSeconds: number;
  /** Whether workers follow the Bluesky Jetstream live (EARSHOT_BLUESKY_LIVE=0 turns it off). */
  blueskyLive: boolean;
  /** The origin of `EARSHOT_PUBLIC_URL` when it is set (pages of it may use the session cookie over graphql-ws). */
  publicOrigin: string | undefined;
  /** The environment connectors read their base addresses and credentials from. */
  env: NodeJS.ProcessEnv;
}

/**
 * A number of seconds, fractions allowed: a test may want a knob shorter
 * than a second. `positive` for an interval that zero would turn into no
 * wait at all (polls back to back).
 */
function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number, sign: 'non-negative' | 'positive' = 'non-negative'): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^(\d+(\.\d*)?|\.\d+)$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!(sign === 'positive' ? value > 0 : value >= 0)) throw new Error(`${name} must be a ${sign} number of seconds, got "${raw}"`);
  return value;
}

export const subgraphNames = ['keywords', 'mentions', 'billing', 'team'] as const;
export type SubgraphName = (typeof subgraphNames)[number];

/** `positive` for a duration that zero would turn into none at all (a timeout that fires at once, a token dead on arrival). */
function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, sign: 'non-negative' | 'positive' = 'non-negative'): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || (sign === 'positive' ? value <= 0 : value < 0)) throw new Error(`${name} must be a ${sign} integer, got "${raw}"`);
  return value;
}

/**
 * A secrets key as an operator writes it: base64 of exactly 32 bytes (what
 * `openssl rand -base64 32` prints). Anything else is refused before
 * Earshot starts, naming where it came from, never echoing it.
 */
export function parseSecretsKey(text: string, source: string): Buffer {
  const key = Buffer.from(text, 'base64');
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(text) || key.length !== 32) {
    throw new Error(`${source} must be base64 of 32 random bytes (e.g. the output of \`openssl rand -base64 32\`); it is not`);
  }
  return key;
}

/**
 * `EARSHOT_PUBLIC_URL` (default `http://localhost:$PORT`), without a trailing
 * slash: the base of every link Earshot sends out (checkout return pages,
 * OAuth redirects, e-mail confirmations).
 */
export function publicUrl(env: NodeJS.ProcessEnv = process.env): string {
  return (env.EARSHOT_PUBLIC_URL || `http://localhost:${env.PORT || 4000}`).replace(/\/+$/, '');
}

function port(env: NodeJS.ProcessEnv): number {
  const value = integer(env, 'PORT', 4000);
  if (value > 65_535) throw new Error(`PORT must be a TCP port, 0 to 65535, got "${env.PORT}"`);
  return value;
}

const logLevels: readonly EarshotConfig['logLevel'][] = ['debug', 'info', 'warn', 'error', 'silent'];

function logLevel(env: NodeJS.ProcessEnv): EarshotConfig['logLevel'] {
  const raw = env.EARSHOT_LOG_LEVEL || 'info';
  const level = logLevels.find((each) => each === raw.toLowerCase());
  if (!level) throw new Error(`EARSHOT_LOG_LEVEL must be one of ${logLevels.join(', ')}, got "${raw}"`);
  return level;
}

/** The origin of `EARSHOT_PUBLIC_URL`, refused unless it is an http or https address: every link and redirect is built on it. */
function publicOrigin(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.EARSHOT_PUBLIC_URL;
  if (!raw) return undefined;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash) {
    throw new Error(`EARSHOT_PUBLIC_URL must be an http or https address without query or fragment, such as https://earshot.example.com, got "${raw}"`);
  }
  return url.origin;
}

/** The schemes each address variable takes; an upstream's base may be a WebSocket one (`EARSHOT_UPSTREAM_JETSTREAM`). */
const addressSchemes: [RegExp, readonly string[]][] = [
  [/^EARSHOT_UPSTREAM_\w+$/, ['http', 'https', 'ws', 'wss']],
  [/^EARSHOT_(CLASSIFIER|GATEWAY|SUBGRAPH_\w+)_URL$/, ['http', 'https']],
  [/^EARSHOT_SMTP_URL$/, ['smtp', 'smtps']],
];

/**
 * Refuses an address variable that is set but no address of its schemes:
 * each was read only when first used (a poll, a send, a classification), so
 * a typo showed as an 'Invalid URL' in a job's log that named no variable.
 */
function checkAddresses(env: NodeJS.ProcessEnv): void {
  for (const [name, raw] of Object.entries(env)) {
    const schemes = addressSchemes.find(([pattern]) => pattern.test(name))?.[1];
    // Blank is unset, as the readers of these variables take it.
    const value = raw?.trim();
    if (!schemes || !value) continue;
    const scheme = URL.canParse(value) ? new URL(value).protocol.slice(0, -1) : undefined;
    if (!scheme || !schemes.includes(scheme)) throw new Error(`${name} must be an address starting ${schemes.map((each) => `${each}://`).join(' or ')}, got "${raw}"`);
  }
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): EarshotConfig {
  checkAddresses(env);
  const subgraphUrls: EarshotConfig['subgraphUrls'] = {};
  for (const name of subgraphNames) {
    const url = env[`EARSHOT_SUBGRAPH_${name.toUpperCase()}_URL`];
    if (url) subgraphUrls[name] = url;
  }
  return {
    port: port(env),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.EARSHOT_DATA_DIR ?? './.data'),
    gatewaySecret: env.EARSHOT_GATEWAY_SECRET || undefined,
    secretsKey: env.EARSHOT_SECRETS_KEY ? parseSecretsKey(env.EARSHOT_SECRETS_KEY, 'EARSHOT_SECRETS_KEY') : undefined,
    rateLimitPerMinute: integer(env, 'EARSHOT_RATE_LIMIT_PER_MINUTE', 600),
    maxBodyBytes: integer(env, 'EARSHOT_MAX_BODY_BYTES', 1024 * 1024),
    subgraphUrls,
    gatewayUrl: env.EARSHOT_GATEWAY_URL || undefined,
    logLevel: logLevel(env),
    pollIntervalSeconds: seconds(env, 'EARSHOT_POLL_INTERVAL_S', 300, 'positive'),
    retryDelaySeconds: seconds(env, 'EARSHOT_RETRY_DELAY_S', 30),
    webhookTimeoutMs: integer(env, 'EARSHOT_WEBHOOK_TIMEOUT_MS', 10_000, 'positive'),
    oauthAccessTokenSeconds: integer(env, 'EARSHOT_OAUTH_ACCESS_TOKEN_S', 3600, 'positive'),
    blueskyLive: env.EARSHOT_BLUESKY_LIVE !== '0',
    publicOrigin: publicOrigin(env),
    env,
  };
}
