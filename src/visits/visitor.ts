// Turns the facts of one click (request headers, client address, destination) into a Visit, and
// the parsers of what a visit records: the referrer's host and the UTM parameters. The client
// address is used for the country lookup and the visitor key, and then forgotten. The recorder
// builds visits from coded clicks with the same parts (recording.ts); this builds one from plain
// facts (seeding, tests).

import { DIRECT, UNKNOWN, type Visit } from "./visit.ts";
import type { Client } from "./ua.ts";
import { userAgentDigest } from "./visitor-id.ts";

// Stored values are bounded so that a hostile client cannot grow rows or rollups without limit.
export const MAX_UTM_LENGTH = 100;
export const MAX_REFERRER_HOST_LENGTH = 253; // the longest DNS name

export type VisitorDeps = {
  classify: (userAgent: string | null) => Client;
  country: (address: string) => string | null;
  /** the salted visitor hash (visitor-id.ts, `agent`: userAgentDigest); without it every visit counts as a new visitor */
  visitorId?: (ts: number, linkSeq: number, address: string, agent: string) => number | null;
};

export type ClickFacts = {
  /** the link's seq (what its visit is written under) and its alias */
  linkSeq: number;
  linkId: string;
  /** the Location sent: its utm_* parameters are the visit's campaign */
  destination: string;
  userAgent: string | null;
  referer: string | null;
  clientAddress: string;
  now: number;
};

/** Builds the Visit to record for one click. */
export function buildVisit(facts: ClickFacts, deps: VisitorDeps): Visit {
  const client = deps.classify(facts.userAgent);
  const utm = utmParameters(facts.destination);
  return {
    linkSeq: facts.linkSeq,
    linkId: facts.linkId,
    ts: facts.now,
    browser: client.browser,
    os: client.os,
    device: client.device,
    country: deps.country(facts.clientAddress) ?? UNKNOWN,
    referrer: referrerHost(facts.referer),
    utmSource: utm.source,
    utmMedium: utm.medium,
    utmCampaign: utm.campaign,
    isBot: client.isBot,
    visitor: deps.visitorId ? deps.visitorId(facts.now, facts.linkSeq, facts.clientAddress, userAgentDigest(facts.userAgent)) : null,
  };
}

/** The referring host without "www.", "Direct" when absent, "Unknown" when unparsable. */
export function referrerHost(referer: string | null): string {
  if (referer === null || referer.trim() === "") return DIRECT;
  if (!URL.canParse(referer)) return UNKNOWN;
  const host = new URL(referer).hostname.toLowerCase().replace(/^www\./, "");
  if (host === "" || host.length > MAX_REFERRER_HOST_LENGTH) return UNKNOWN;
  return host;
}

export type Utm = { source: string | null; medium: string | null; campaign: string | null };

const NO_UTM: Utm = { source: null, medium: null, campaign: null };

/** utm_source/medium/campaign of a URL; empty values count as absent, long ones are trimmed. */
export function utmParameters(url: string): Utm {
  const q = url.indexOf("?");
  if (q === -1 || !url.includes("utm_", q)) return NO_UTM;
  const hash = url.indexOf("#", q);
  const params = new URLSearchParams(url.slice(q + 1, hash === -1 ? undefined : hash));
  const pick = (name: string) => {
    // Control characters go: they mean nothing in a campaign's name, and PostgreSQL's text refuses NUL.
    const value = params.get(name)?.replace(/[\u0000-\u001f\u007f]/g, "").trim();
    return value ? value.slice(0, MAX_UTM_LENGTH) : null;
  };
  return { source: pick("utm_source"), medium: pick("utm_medium"), campaign: pick("utm_campaign") };
}
