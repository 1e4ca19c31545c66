// The Click (src/links/click.ts) made from a request, once, at the door. One object a click: the
// fields every click reads are taken here, the rest read from the request when first asked.

import type { Click } from "../links/click.ts";
import type { DomainEntry } from "../domains/directory.ts";
import { linkKey } from "../domains/link-key.ts";
import { clientAddress, type TrustedProxies } from "../visits/client-ip.ts";
import { pathStart } from "./front-door.ts";
import { peerAddress, type PeerServer } from "./request-origin.ts";

export class RequestClick implements Click {
  readonly method: string;
  readonly query: string;
  /** read once: each read of request.headers is a call into the server */
  readonly headers: Headers;
  /**
   * The seq of the link the click was admitted to (redirect.ts), 0 until then: what its visit and
   * its visitor key are made of (docs/architecture.md: A link's identity). A field, not a
   * parameter: the redirect's functions pass the click whole.
   */
  linkSeq = 0;
  /**
   * The domain the click's host names, when domains are configured (the door sets it, with the
   * link's key as `id`); null: the default domain of an instance with one.
   */
  domain: DomainEntry | null = null;
  #peer: string | null = null;
  /** `url`: request.url, when the caller has read it already (it builds a new string on every read) */
  constructor(
    readonly request: Request,
    public id: string,
    readonly server: PeerServer,
    readonly now: number,
    readonly url: string = request.url,
  ) {
    this.method = request.method;
    this.headers = request.headers;
    const q = url.indexOf("?");
    this.query = q === -1 ? "" : url.slice(q + 1);
  }
  /** The click is for the link of its alias on `domain`: its id becomes the link's key (src/domains/link-key.ts). */
  onDomain(domain: DomainEntry): void {
    this.domain = domain;
    this.id = linkKey(domain.key, this.id);
  }
  host(): string {
    const start = this.url.indexOf("//") + 2;
    return this.url.slice(start, pathStart(this.url));
  }
  path(): string {
    const start = pathStart(this.url);
    const q = this.url.indexOf("?", start);
    return this.url.slice(start, q === -1 ? undefined : q);
  }
  header(name: string): string | null {
    return this.headers.get(name);
  }
  peer(): string {
    return (this.#peer ??= peerAddress(this.server, this.request));
  }
}

/** The address the click came from, after the trusted-proxy rule (docs/security.md: Security, "Trusted proxies"). */
export function clickClient(click: RequestClick, trusted: TrustedProxies): string {
  return trusted.empty ? click.peer() : clientAddress(click.peer(), click.headers, trusted);
}
