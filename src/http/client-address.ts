// The address of the client a request came from. Behind a proxy every request comes from the
// proxy's address, so per-address limits (the dashboard's login throttle) and the audit log would
// see one client; with TRUST_PROXY=1 the node takes the address the proxy puts in X-Real-IP
// (deploy/svc-locations.conf sets it from the connection, overwriting whatever the client sent).
// Only set it when the node is reachable through the proxy alone (HOST=127.0.0.1 or a private network).

export function clientAddress(peer: string, realIp: string | undefined, trustProxy: boolean): string {
  if (trustProxy && realIp) {
    const ip = realIp.trim();
    if (/^[0-9a-fA-F:.]{2,45}$/.test(ip)) return ip;
  }
  return peer;
}
