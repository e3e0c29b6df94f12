import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestEarshot } from './harness.ts';

describe('a public port already taken', () => {
  it('fails the start with EADDRINUSE instead of waiting for ever', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      await expect(startTestEarshot({ port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});
