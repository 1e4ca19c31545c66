// The connection to a YOURLS database under the outbound policy (src/outbound/reach.ts): its host
// resolved and checked, and the client given the address that was checked, so that the name is
// never resolved a second time by the client (which could then be led elsewhere). Timeouts: 5 s
// for the lookup (reach.ts), 15 s for the connection.

import { SQL } from "bun";
import { checkedAs } from "../../outbound/pinned-fetch.ts";
import { OutboundRefused, reachableAddress, writtenHostRefusal, type OutboundPolicy, type Resolve } from "../../outbound/reach.ts";
import { SourceError } from "../source.ts";

const CONNECT_TIMEOUT_S = 15;
/** Parameters of a mysql:// URL that make Bun's client connect to a unix socket instead of the host. */
const SOCKET_PARAMETERS = ["path", "socket"];
/** TLS modes that check the certificate against the host's name (Bun's "verify-full", MySQL's VERIFY_IDENTITY). */
const NAME_CHECKED = /^(verify[-_]full|verify[-_]identity)$/i;

/** Why a written --source-db is refused before anything is resolved: a special-purpose IP address, or a unix socket (on this host); null when it may be tried. */
export function writtenDatabaseRefusal(url: URL, reach: OutboundPolicy): string | null {
  const written = writtenHostRefusal(url.hostname, reach);
  if (written !== null) return written;
  if (!reach.allowSpecial && [...url.searchParams.keys()].some((k) => SOCKET_PARAMETERS.includes(k.toLowerCase()))) {
    return `a unix socket is on this host; reached only with ${reach.flag}`;
  }
  return null;
}

/** A client of one connection to the checked address; throws a SourceError when the host is refused or does not resolve. */
export async function connectYourls(url: URL, password: string | null, reach: OutboundPolicy, where: string, resolve?: Resolve): Promise<SQL> {
  let address: string;
  try {
    address = await reachableAddress(url.hostname, reach, resolve);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof OutboundRefused) throw new SourceError(`the YOURLS database ${where} is refused: ${message} (docs/importing.md: Moving from another shortener)`, "private");
    throw new SourceError(`the YOURLS database ${where} cannot be reached: ${message}`, "unreachable");
  }
  return new SQL(yourlsClientOptions(url, address, password));
}

/** Bun's SQL options: the URL, with the checked address as the host (an option wins over the URL), and the certificate checked against the name. */
export function yourlsClientOptions(url: URL, address: string, password: string | null): Bun.SQL.PostgresOrMySQLOptions {
  const name = url.hostname.replace(/^\[|\]$/g, "");
  const verifiesName = [...url.searchParams].some(([k, v]) => /^(ssl[-_]?mode|ssl|tls)$/i.test(k) && NAME_CHECKED.test(v));
  return {
    url: url.toString(),
    adapter: "mysql",
    hostname: address,
    ...(password === null ? {} : { password }),
    ...(verifiesName && address !== name ? { tls: checkedAs(name) } : {}),
    max: 1,
    idleTimeout: 30,
    connectionTimeout: CONNECT_TIMEOUT_S,
  };
}
