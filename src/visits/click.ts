// A click as the redirect sees it: the raw facts, taken in a few hundred nanoseconds. Everything
// derived from them (browser, bot, country, referrer host, UTM, visitor) is worked out on the
// recorder's thread, so the thread that answers clicks does no parsing and no lookups.
//
// The hand-over between the two threads (src/threads/recorder/client.ts to src/visits/recording.ts) is one
// JSON string per tick. The link goes as its seq, a number; the strings that repeat across clicks
// (link id, User-Agent, Referer, peer, destination) are sent once each and then as numbers: the
// click thread's JSON stays short, and the recorder parses each distinct string once and works out
// what follows from it (browser, bot, referrer host, UTM) once per string, not once per click.

export type Click = {
  /** the link's seq, which its visit is written under (docs/architecture.md: A link's identity) */
  linkSeq: number;
  /** the alias, for what people see (the live view, webhook payloads) */
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
  /** which rule and variant a link with rules or a split took, or a fallback (visit.ts routeText, fallbackText); absent for a plain link */
  route?: string | null;
};

/** The longest User-Agent queued; longer ones are cut (ua-parser-js reads 500 characters, isbot sees all we keep). */
export const MAX_USER_AGENT = 512;
/** The longest Referer queued (only its host is recorded; no host needs more). */
export const MAX_REFERER = 1024;
/** Forwarding headers longer than this are replaced by a value that names no hop (client-ip.ts ignores them too). */
export const MAX_FORWARDING = 4096;
/** Distinct strings the dictionary holds before it starts over (both threads forget it together). */
export const MAX_CODES = 8192;
/** How a click's fields sit in the flat list of a hand-over. */
export const CLICK_FIELDS = 10;
export const CLICK_TS = 2;

const NO_HOP = "unknown"; // RFC 7239's word for a hop it cannot name: client-ip.ts trusts nothing left of it

/** A hand-over as sent: whether the dictionary starts over, the strings new to it, and the clicks. */
type Message = [reset: 0 | 1, fresh: string[], flat: (string | number | null)[]];

/** The click thread's side: packs clicks, each string of the dictionary once. */
export type ClickPacker = {
  add(click: Click): void;
  /** Clicks added since the last take. */
  readonly count: number;
  /** Characters held by those clicks (the new strings and the forwarding headers): what a hand-over weighs. */
  readonly size: number;
  /** The clicks added so far as one message, or null when there are none. */
  take(): { message: string; count: number; size: number } | null;
};

export function createClickPacker(maxCodes = MAX_CODES): ClickPacker {
  let codes = new Map<string, number>();
  let reset: 0 | 1 = 0;
  let fresh: string[] = [];
  let flat: (string | number | null)[] = [];
  let count = 0;
  let size = 0;
  const code = (text: string | null): number => {
    if (text === null) return -1;
    let n = codes.get(text);
    if (n === undefined) {
      n = codes.size;
      codes.set(text, n);
      fresh.push(text);
      size += text.length;
    }
    return n;
  };
  const bounded = (header: string | null) => (header === null || header.length <= MAX_FORWARDING ? header : NO_HOP);
  return {
    add(c) {
      const ua = c.userAgent !== null && c.userAgent.length > MAX_USER_AGENT ? c.userAgent.slice(0, MAX_USER_AGENT) : c.userAgent;
      const referer = c.referer !== null && c.referer.length > MAX_REFERER ? c.referer.slice(0, MAX_REFERER) : c.referer;
      const forwardedFor = bounded(c.forwardedFor);
      const forwarded = bounded(c.forwarded);
      flat.push(c.linkSeq, code(c.linkId), c.ts, code(ua), code(referer), code(c.peer), forwardedFor, forwarded, code(c.destination), c.route == null ? -1 : code(c.route));
      size += 16 + (forwardedFor?.length ?? 0) + (forwarded?.length ?? 0);
      count++;
    },
    get count() {
      return count;
    },
    get size() {
      return size;
    },
    take() {
      if (count === 0) return null;
      const taken = { message: JSON.stringify([reset, fresh, flat] satisfies Message), count, size };
      // Started over between hand-overs only: every click of a message is coded in one dictionary.
      // Within one it may pass the bound by the strings of one hand-over's clicks.
      reset = codes.size >= maxCodes ? 1 : 0;
      if (reset === 1) codes = new Map();
      fresh = [];
      flat = [];
      count = 0;
      size = 0;
      return taken;
    },
  };
}

/** A click as the recorder reads it: strings where they vary per click, dictionary codes where they repeat. */
export type CodedClick = {
  linkSeq: number;
  linkId: string;
  ts: number;
  /** codes of the dictionary (-1: none); `strings[code]` is the text */
  userAgent: number;
  referer: number;
  destination: number;
  route: number;
  peer: string;
  forwardedFor: string | null;
  forwarded: string | null;
};

/** The recorder's side: the dictionary, rebuilt from the messages in the order they were sent. */
export type ClickReader = {
  /** A message's clicks, parsed but not yet read (reading updates the dictionary: do it in order). */
  parse(message: string): ParsedHandover;
  /** Calls each(click) for every click of a parsed message (after starting the dictionary over when it says so). */
  read(handover: ParsedHandover, each: (click: CodedClick) => void): void;
  /** The dictionary's text of a code. */
  text(code: number): string | null;
};

/** `startsOver`: the dictionary starts over with this hand-over (what was cached per code is stale). */
export type ParsedHandover = { readonly message: Message; readonly startsOver: boolean; readonly times: () => Iterable<number> };

export function createClickReader(): ClickReader {
  let strings: string[] = [];
  const click: CodedClick = { linkSeq: 0, linkId: "", ts: 0, userAgent: -1, referer: -1, destination: -1, route: -1, peer: "", forwardedFor: null, forwarded: null };
  return {
    parse(text) {
      const message = JSON.parse(text) as Message;
      return {
        message,
        startsOver: message[0] === 1,
        *times() {
          const flat = message[2];
          for (let i = CLICK_TS; i < flat.length; i += CLICK_FIELDS) yield flat[i] as number;
        },
      };
    },
    read({ message }, each) {
      const [reset, fresh, flat] = message;
      if (reset === 1) strings = [];
      for (const s of fresh) strings.push(s);
      // One reused object: the caller takes what it needs before the next click.
      for (let i = 0; i + CLICK_FIELDS <= flat.length; i += CLICK_FIELDS) {
        click.linkSeq = flat[i] as number;
        click.linkId = strings[flat[i + 1] as number]!;
        click.ts = flat[i + 2] as number;
        click.userAgent = flat[i + 3] as number;
        click.referer = flat[i + 4] as number;
        click.peer = strings[flat[i + 5] as number]!;
        click.forwardedFor = flat[i + 6] as string | null;
        click.forwarded = flat[i + 7] as string | null;
        click.destination = flat[i + 8] as number;
        click.route = flat[i + 9] as number;
        each(click);
      }
    },
    text: (code) => (code < 0 ? null : (strings[code] ?? null)),
  };
}
