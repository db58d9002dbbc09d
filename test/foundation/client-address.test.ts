// Which address a request is counted against (dashboard login throttle, audit log).
import { describe, it, expect } from 'vitest';
import { clientAddress } from '../../src/http/client-address.ts';

describe('clientAddress', () => {
  it('is the peer unless TRUST_PROXY is set', () => {
    expect(clientAddress('127.0.0.1', '203.0.113.7', false)).toBe('127.0.0.1');
  });
  it("behind a trusted proxy is the proxy's X-Real-IP (v4 or v6)", () => {
    expect(clientAddress('127.0.0.1', '203.0.113.7', true)).toBe('203.0.113.7');
    expect(clientAddress('127.0.0.1', ' 2001:db8::1 ', true)).toBe('2001:db8::1');
  });
  it('falls back to the peer when the header is missing or not an address', () => {
    expect(clientAddress('127.0.0.1', undefined, true)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', 'evil\r\nx', true)).toBe('127.0.0.1');
  });
});
