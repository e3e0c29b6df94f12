import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../runtime/config.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

describe('the environment', () => {
  it('has the contract’s defaults', () => {
    expect(readConfig({})).toMatchObject({ port: 4000, dataDir: path.resolve('./.data'), logLevel: 'info', retryDelaySeconds: 30, webhookTimeoutMs: 10_000, publicOrigin: undefined });
    expect(readConfig({ EARSHOT_PUBLIC_URL: 'https://example.com/earshot/', EARSHOT_LOG_LEVEL: 'WARN' })).toMatchObject({ publicOrigin: 'https://example.com', logLevel: 'warn' });
    const addresses = {
      EARSHOT_UPSTREAM_HACKERNEWS: 'http://127.0.0.1:9001/prefix',
      EARSHOT_UPSTREAM_JETSTREAM: 'ws://127.0.0.1:9002',
      EARSHOT_CLASSIFIER_URL: 'https://api.example.com/v1',
      EARSHOT_SMTP_URL: 'smtp://user:pass@127.0.0.1:2525',
      EARSHOT_UPSTREAM_X: '',
      EARSHOT_CLASSIFIER_KEY: ' ',
      EARSHOT_SUBGRAPH_TEAM_URL: '  ',
    };
    expect(readConfig(addresses).env).toEqual(addresses);
    // Timing knobs exist so tests need not wait real minutes; a test may want less than a second.
    expect(readConfig({ EARSHOT_POLL_INTERVAL_S: '0.5', EARSHOT_RETRY_DELAY_S: '.25' })).toMatchObject({ pollIntervalSeconds: 0.5, retryDelaySeconds: 0.25 });
  });

  it('refuses a value it cannot use, naming the variable', () => {
    const refusals: [Record<string, string>, RegExp][] = [
      [{ PORT: 'abc' }, /^PORT must be a non-negative integer, got "abc"$/],
      [{ PORT: '70000' }, /^PORT must be a TCP port, 0 to 65535, got "70000"$/],
      [{ EARSHOT_RETRY_DELAY_S: '-1' }, /^EARSHOT_RETRY_DELAY_S must be/],
      [{ EARSHOT_POLL_INTERVAL_S: '5m' }, /^EARSHOT_POLL_INTERVAL_S must be a positive number of seconds, got "5m"$/],
      // A poll interval of 0 was taken by this check and then quietly made 300 s.
      [{ EARSHOT_POLL_INTERVAL_S: '0' }, /^EARSHOT_POLL_INTERVAL_S must be a positive number of seconds, got "0"$/],
      [{ EARSHOT_POLL_INTERVAL_S: '0.00' }, /^EARSHOT_POLL_INTERVAL_S must be a positive number of seconds, got "0.00"$/],
      // Both were read as 0 and then quietly made their default.
      [{ EARSHOT_WEBHOOK_TIMEOUT_MS: '0' }, /^EARSHOT_WEBHOOK_TIMEOUT_MS must be a positive integer, got "0"$/],
      [{ EARSHOT_OAUTH_ACCESS_TOKEN_S: '0' }, /^EARSHOT_OAUTH_ACCESS_TOKEN_S must be a positive integer, got "0"$/],
      [{ EARSHOT_PUBLIC_URL: 'earshot.example.com' }, /^EARSHOT_PUBLIC_URL must be an http or https address/],
      [{ EARSHOT_PUBLIC_URL: 'ftp://example.com' }, /^EARSHOT_PUBLIC_URL must be an http or https address/],
      [{ EARSHOT_PUBLIC_URL: 'https://example.com/?x=1' }, /^EARSHOT_PUBLIC_URL must be an http or https address/],
      // An unknown level printed every line, debug included.
      [{ EARSHOT_LOG_LEVEL: 'verbose' }, /^EARSHOT_LOG_LEVEL must be one of debug, info, warn, error, silent, got "verbose"$/],
      // An address read only when first used failed each poll or send on an 'Invalid URL' naming no variable.
      [{ EARSHOT_UPSTREAM_HACKERNEWS: '127.0.0.1:9001' }, /^EARSHOT_UPSTREAM_HACKERNEWS must be an address starting http:\/\/ or https:\/\/ or ws:\/\/ or wss:\/\/, got "127.0.0.1:9001"$/],
      [{ EARSHOT_CLASSIFIER_URL: 'api.openai.com/v1' }, /^EARSHOT_CLASSIFIER_URL must be an address starting http:\/\/ or https:\/\//],
      [{ EARSHOT_SMTP_URL: 'mail.example.com:25' }, /^EARSHOT_SMTP_URL must be an address starting smtp:\/\/ or smtps:\/\//],
      [{ EARSHOT_SUBGRAPH_TEAM_URL: 'team:4004' }, /^EARSHOT_SUBGRAPH_TEAM_URL must be an address/],
    ];
    for (const [env, message] of refusals) expect(() => readConfig(env), JSON.stringify(env)).toThrow(message);
  });

  it('ends npm start with exit code 1 and one log line naming the bad variable, not a stack trace', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, EARSHOT_PUBLIC_URL: 'earshot.example.com', EARSHOT_DATA_DIR: path.join(repoRoot, '.data-never-made') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'error', message: expect.stringMatching(/^Earshot cannot start: EARSHOT_PUBLIC_URL must be/) });
  }, 60_000);

  it('ends npm start with exit code 1 and one error line naming the port when PORT is taken', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '0.0.0.0', resolve));
    const { port } = holder.address() as net.AddressInfo;
    const dataDir = path.join(os.tmpdir(), `earshot-port-taken-${process.pid}`);
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH, PORT: String(port), EARSHOT_DATA_DIR: dataDir, EARSHOT_BLUESKY_LIVE: '0', EARSHOT_LOG_LEVEL: 'error' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      const lines = output.trim().split('\n');
      expect(lines, output).toHaveLength(1);
      expect(JSON.parse(lines[0])).toMatchObject({ level: 'error', message: `Earshot cannot start: port ${port} is already in use by another process` });
    } finally {
      holder.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
