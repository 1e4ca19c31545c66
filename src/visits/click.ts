// A click as the redirect sees it: the raw facts, taken in a few hundred nanoseconds. Everything
// derived from them (browser, bot, country, referrer host, UTM) is worked out on the recorder's
// thread, so the thread that answers clicks does no parsing and no lookups.

export type Click = {
  linkId: string;
  ts: number;
  userAgent: string | null;
  referer: string | null;
  /** the socket peer; with forwardedFor/forwarded, what the trusted-proxy rule decides on */
  peer: string;
  forwardedFor: string | null;
  forwarded: string | null;
  /** the Location sent, when it carries utm_* parameters (null otherwise: nothing to read) */
  destination: string | null;
};

const FIELDS = 8;

/** Appends a click to a flat list (one array of strings and numbers per batch serializes fastest). */
export function packClick(out: (string | number | null)[], c: Click): void {
  out.push(c.linkId, c.ts, c.userAgent, c.referer, c.peer, c.forwardedFor, c.forwarded, c.destination);
}

/** The clicks of a flat list made by packClick. */
export function* unpackClicks(flat: readonly (string | number | null)[]): Generator<Click> {
  for (let i = 0; i + FIELDS <= flat.length; i += FIELDS) {
    yield {
      linkId: flat[i] as string,
      ts: flat[i + 1] as number,
      userAgent: flat[i + 2] as string | null,
      referer: flat[i + 3] as string | null,
      peer: flat[i + 4] as string,
      forwardedFor: flat[i + 5] as string | null,
      forwarded: flat[i + 6] as string | null,
      destination: flat[i + 7] as string | null,
    };
  }
}

export const CLICK_FIELDS = FIELDS;
/** Where a click's time is in its FIELDS entries of a flat list. */
export const CLICK_TS = 1;
