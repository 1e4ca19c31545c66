// Ports for services that must know theirs before they start (a base URL registered elsewhere).

/** A free loopback port (the service's base URL must be known before the provider registers it). */
export async function freePort(hostname = "127.0.0.1"): Promise<number> {
  const probe = Bun.listen({ hostname, port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}
