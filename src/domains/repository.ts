// What the domains need of storage (the port; src/db/<engine>/domains.ts are the adapters). The
// rules (which is the default, who may do what, what a rename or a removal moves) are in
// src/domains/ and src/ops/domains/; the adapters only keep rows, each change in one transaction.

import type { MaybePromise } from "../util/maybe.ts";
import type { Domain, DomainSettings } from "./domain.ts";

/** A domain as kept, with how many links it holds (its stored key: '' for the default). */
export type StoredDomain = Domain & { links: number };

export type DomainRepository = {
  /** Every domain, the default first, then by name. */
  list(): MaybePromise<StoredDomain[]>;
  /** Every domain without counting its links: what the directory reads (src/domains/directory.ts), every 10 s at most. */
  settings(): MaybePromise<Domain[]>;
  /** Adds a domain; "taken" when the name is kept already. isDefault: its links are stored as ''. */
  add(domain: Domain): MaybePromise<StoredDomain | "taken">;
  /** Changes a domain's settings; null when there is no such domain. */
  change(name: string, settings: Partial<DomainSettings>): MaybePromise<StoredDomain | null>;
  /**
   * Renames a domain: its row, and (unless it is the default, whose links are stored as '') its
   * links' and retired aliases' stored domain, in one transaction. "taken": another has that name.
   */
  rename(name: string, to: string): MaybePromise<StoredDomain | "missing" | "taken">;
  /**
   * Makes `name` the default: its links are stored as '' and the former default's under its own
   * name (a swap, in one transaction). "clash" with the aliases both hold, when any: nothing changes.
   */
  makeDefault(name: string): MaybePromise<StoredDomain | "missing" | { clash: string[] }>;
  /**
   * Moves every link of `from` to `to` (stored domains: '' for the default). "clash" with the
   * aliases both hold (or that `to` has retired), when any: nothing moves. Answers how many moved.
   */
  moveLinks(from: string, to: string): MaybePromise<number | { clash: string[] }>;
  /** Removes a domain that holds no links: "missing", "has_links" (nothing removed), or "removed". */
  remove(name: string): MaybePromise<"removed" | "missing" | "has_links">;
};
