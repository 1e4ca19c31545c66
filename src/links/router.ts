// Where a click on a link with behaviour goes, decided from memory: the link's rules, compiled once
// when its entry is cached (click-rules.ts), walked in order until one whose conditions all hold,
// and a split picked by the day's visitor key, so a visitor who comes back the same day lands on
// the same variant and nothing is stored about them. A plain link has no route at all (null): its
// clicks never reach this file.
//
// The facts a condition reads (the client's browser, its address, its country, …) are worked out
// only when a condition asks, once per click (src/http/click-facts.ts).

import { compileDestination, type Destination } from "./destination.ts";
import { cidrRange, SYSTEMS, type Condition, type Rule, type Variant } from "./rules.ts";
import { DEFAULT_REDIRECT_TYPE, type Behaviour, type RedirectType } from "./behaviour.ts";
import { routeText } from "../visits/visit.ts";
import { passwordHashWithinBounds } from "./password-hash.ts";

/** What a routed click may be asked about. */
export type ClickFacts = {
  browser(): string;
  os(): string;
  device(): string;
  /** the visitor's most preferred language tag, lower case ("pt-br"), or null */
  language(): string | null;
  /** whether the click's query has this parameter (with this value, when one is given) */
  hasParam(key: string, value: string | undefined): boolean;
  /** the client's address (the trusted-proxy rule applied) */
  address(): string;
  /** ISO 3166 alpha-2, or null; asked only once the lookup is loaded (NEEDS_COUNTRY) */
  country(): string | null;
  /** the day's visitor key of this click on this link (src/visits/visitor-id.ts); asked once the salt is read (NEEDS_VISITOR) */
  visitor(): number;
};

/** What must be ready before choose() may run: the country lookup, the day's salt. */
export const NEEDS_COUNTRY = 1;
export const NEEDS_VISITOR = 2;

/**
 * `route`: which rule and variant a click took, as handed to the recorder ("rule 2\nhttps://b…",
 * "default\n" when no rule matched); null for a link without rules or variants.
 */
export type Choice = { destination: Destination; route: string | null };

export type LinkRoute = {
  status: RedirectType;
  passwordHash: string | null;
  /**
   * The stored hash is outside the bounds a verify may cost (password-hash.ts): no password is
   * checked and the link answers locked until its owner sets a new one. Decided here, once per
   * cached entry, so that a click pays nothing for it.
   */
  passwordLocked: boolean;
  /** NEEDS_* flags of the conditions and splits */
  needs: number;
  choose(facts: ClickFacts, now: number): Choice;
};

type Test = (f: ClickFacts, now: number) => boolean;

/** What a condition costs to check, roughly: a comparison, a scan of a header, a cached parse, an address lookup. */
const COST: Record<Condition["type"], number> = { after: 0, before: 0, query: 1, language: 2, device: 3, os: 3, browser: 3, cidr: 4, country: 5 };

/** The route of a link, or null for one that behaves plainly (its URL, a 302, no password). */
/** `fallbackUrl`: the link's, offered beside a destination in an app (destination.ts). */
export function compileRoute(url: string, b: Pick<Behaviour, "rules" | "variants" | "passwordHash" | "redirectType"> & Partial<Pick<Behaviour, "fallbackUrl">>): LinkRoute | null {
  if (b.rules === null && b.variants === null && b.passwordHash === null && b.redirectType === DEFAULT_REDIRECT_TYPE) return null;
  let needs = 0;
  const routed = b.rules !== null || b.variants !== null;
  const target = (to: { url?: string; variants?: Variant[] }, name: string): ((f: ClickFacts) => Choice) => {
    if (to.variants === undefined) {
      const choice: Choice = { destination: compileDestination(to.url!, b.fallbackUrl), route: routed ? routeText(name, "") : null };
      return () => choice;
    }
    needs |= NEEDS_VISITOR;
    return split(to.variants, name, b.fallbackUrl);
  };
  const fallback = target(b.variants === null ? { url } : { variants: b.variants }, "default");
  const rules = (b.rules ?? []).map((rule: Rule, i) => {
    // All of a rule's conditions must hold, so they are tried cheapest first (the order written
    // changes nothing but the cost): a time or a query before a User-Agent, a country last.
    const tests = [...rule.conditions].sort((x, y) => COST[x.type] - COST[y.type]).map((c) => {
      if (c.type === "country") needs |= NEEDS_COUNTRY;
      return test(c);
    });
    return { tests, to: target(rule, `rule ${i + 1}`) };
  });
  return {
    status: b.redirectType,
    passwordHash: b.passwordHash,
    passwordLocked: b.passwordHash !== null && !passwordHashWithinBounds(b.passwordHash),
    needs,
    choose(facts, now) {
      // Plain loops: no closure made per rule and click.
      next: for (let i = 0; i < rules.length; i++) {
        const rule = rules[i]!;
        for (let j = 0; j < rule.tests.length; j++) if (!rule.tests[j]!(facts, now)) continue next;
        return rule.to(facts);
      }
      return fallback(facts);
    },
  };
}

/** A split by weight: the visitor key's place among the weights picks the variant. */
function split(variants: readonly Variant[], name: string, fallbackUrl: string | null | undefined): (f: ClickFacts) => Choice {
  const choices = variants.map((v) => ({ destination: compileDestination(v.url, fallbackUrl), route: routeText(name, v.url) }));
  const bounds: number[] = [];
  let total = 0;
  for (const v of variants) bounds.push((total += v.weight));
  return (f) => {
    const n = f.visitor() % total;
    let i = 0;
    while (n >= bounds[i]!) i++;
    return choices[i]!;
  };
}

function test(c: Condition): Test {
  switch (c.type) {
    case "device":
      return (f) => f.device() === c.value;
    case "os": {
      const name = SYSTEMS[c.value];
      return (f) => f.os() === name;
    }
    case "browser": {
      const name = c.value.toLowerCase();
      return (f) => f.browser().toLowerCase() === name;
    }
    case "language": {
      // "de" holds for de, de-AT, de-CH; "pt-BR" only for pt-BR.
      const tag = c.value.toLowerCase();
      const prefix = `${tag}-`;
      return tag.includes("-") ? (f) => f.language() === tag : (f) => {
        const l = f.language();
        return l !== null && (l === tag || l.startsWith(prefix));
      };
    }
    case "country":
      return (f) => f.country() === c.value;
    case "query": {
      const { key, value } = c;
      return (f) => f.hasParam(key, value);
    }
    case "cidr": {
      const range = cidrRange(c.value);
      return (f) => range.contains(f.address());
    }
    case "after": {
      const at = Date.parse(c.value);
      return (_f, now) => now >= at;
    }
    case "before": {
      const at = Date.parse(c.value);
      return (_f, now) => now < at;
    }
  }
}
