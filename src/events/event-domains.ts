// The domain of an event's link, as webhooks' payloads name it (docs/webhooks.md: Webhooks, "Several
// domains"): the domain's name beside the link's id (its alias). Added by the fan-out, which reads
// every event's link back by its seq anyway, so that the threads that write events (the recorder,
// the expiry sweep) need not know the domains, and a click costs nothing more.

import { baseOf, type DomainDirectory } from "../domains/directory.ts";
import { DEFAULT_DOMAIN } from "../domains/domain.ts";
import type { EventType } from "./types.ts";

/**
 * The name of a link's stored domain: its own for a domain other than the default; the default's
 * (a domain row's name, else --base-url's host) for '', null when the instance knows no name.
 */
export function domainNameOf(stored: string | null, defaultName: string | null): string | null {
  if (stored === null) return null;
  return stored === DEFAULT_DOMAIN ? defaultName : stored;
}

type Named = { id: string } & Record<string, unknown>;

/** `{id, domain, …}`: the domain right after the id it qualifies. */
function named(value: Named, domain: string | null): Named {
  const { id, ...rest } = value;
  return { id, domain, ...rest };
}

/** An event's data (not link.clicks: the fan-out names each click itself) with its link's domain. */
export function withDomain(type: Exclude<EventType, "link.clicks">, data: unknown, domain: string | null): unknown {
  if (typeof data !== "object" || data === null) return data;
  if (type === "link.gone" || type === "link.milestone") return named(data as Named, domain);
  const withLink = data as { link?: Named };
  return withLink.link === undefined ? data : { ...withLink, link: named(withLink.link, domain) };
}

/** The base of a link's short URL in its events, by its stored domain (null: none known). */
export type EventBase = (storedDomain: string) => string | null;

/**
 * An event has no request to take a host from: the default domain's links are under --base-url,
 * else under the default domain's name when one is known; another domain's under its own
 * (https://name, or http when the domain says so). `directory`: null until the service built it.
 */
export function eventBase(baseUrl: string | null, directory: () => DomainDirectory | null): EventBase {
  return (stored) => {
    const domains = directory();
    if (stored === DEFAULT_DOMAIN) return baseUrl ?? (domains === null ? null : baseOf(domains.defaultDomain));
    const entry = domains?.byKey(stored) ?? null;
    return entry === null ? null : baseOf(entry);
  };
}
