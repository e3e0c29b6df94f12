import { describe, expect, it } from 'vitest';
import { assertPublicHttpUrl, isPrivateAddress, PrivateAddressError, type HostLookup } from '../runtime/public-address.ts';

const resolvesTo = (...addresses: string[]): HostLookup => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('private address rule', () => {
  it.each([
    '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.254', '192.168.1.10', '127.0.0.1', '127.8.9.10',
    '169.254.169.254', '0.0.0.0', '0.1.2.3', '::1', '::', 'fc00::1', 'fd12:3456:789a::1', 'fe80::1', 'febf::1',
    '::ffff:127.0.0.1', '::ffff:10.1.2.3', '::ffff:a9fe:a9fe',
    // Not globally reachable either: shared carrier space (a cloud's metadata at 100.100.100.200), IETF, benchmarking,
    // multicast, reserved, broadcast; IPv6 multicast, and NAT64 and 6to4 addresses of a private IPv4 host.
    '100.64.0.1', '100.100.100.200', '100.127.255.254', '192.0.0.8', '198.18.0.1', '198.19.255.255', '224.0.0.1', '239.255.255.250',
    '240.0.0.1', '255.255.255.255', 'ff02::1', '64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '2002:7f00:1::1', '2002:a9fe:a9fe::',
  ])('%s is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8', '172.15.255.255', '172.32.0.1', '192.169.0.1', '169.255.0.1', '11.0.0.1', '1.1.1.1',
    '2606:4700:4700::1111', '2001:db8::1', 'fbff::1', 'fec0::1', '::ffff:8.8.8.8',
    '100.63.255.255', '100.128.0.1', '192.0.1.1', '198.17.255.255', '198.20.0.1', '223.255.255.255', '64:ff9b::808:808', '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('refuses a host that resolves to a private address, naming it', async () => {
    const failure = await assertPublicHttpUrl('https://intranet.example/feed', { env: {}, lookup: resolvesTo('93.184.216.34', '10.0.0.7') }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PrivateAddressError);
    expect((failure as Error).message).toBe('https://intranet.example/feed is refused: host intranet.example is a private or loopback address (10.0.0.7)');
  });

  it('refuses address literals without a look-up, IPv6 in brackets too', async () => {
    const neverLookedUp: HostLookup = async () => {
      throw new Error('looked up');
    };
    await expect(assertPublicHttpUrl('http://127.0.0.1:8080/feed', { env: {}, lookup: neverLookedUp })).rejects.toBeInstanceOf(PrivateAddressError);
    await expect(assertPublicHttpUrl('http://[::1]/feed', { env: {}, lookup: neverLookedUp })).rejects.toBeInstanceOf(PrivateAddressError);
    await expect(assertPublicHttpUrl('http://2130706433/feed', { env: {}, lookup: neverLookedUp })).rejects.toBeInstanceOf(PrivateAddressError);
  });

  it('refuses what is not http or https', async () => {
    await expect(assertPublicHttpUrl('file:///etc/passwd', { env: { EARSHOT_ALLOW_PRIVATE_URLS: '1' } })).rejects.toBeInstanceOf(PrivateAddressError);
  });

  it('lets public hosts through', async () => {
    await expect(assertPublicHttpUrl('https://blog.example/feed', { env: {}, lookup: resolvesTo('93.184.216.34', '2606:2800:220:1::1') })).resolves.toBeUndefined();
  });

  it('lets private hosts through when EARSHOT_ALLOW_PRIVATE_URLS=1', async () => {
    await expect(assertPublicHttpUrl('http://127.0.0.1:8080/feed', { env: { EARSHOT_ALLOW_PRIVATE_URLS: '1' } })).resolves.toBeUndefined();
    await expect(assertPublicHttpUrl('http://127.0.0.1:8080/feed', { env: { EARSHOT_ALLOW_PRIVATE_URLS: 'yes' } })).rejects.toBeInstanceOf(PrivateAddressError);
  });
});
