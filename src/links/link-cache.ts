// The click path's memory of links (src/links/store.ts): targets by id in a bounded map, so that a
// click on a known link touches no database, and what must be forgotten when a link changes here
// or on another instance.

import { Lru } from "../util/lru.ts";
import { then, type MaybePromise } from "../util/maybe.ts";
import { EVERY_LINK } from "./change-script.ts";
import type { ClickBudget } from "./store.ts";
import type { Target } from "./click-rules.ts";

export class LinkCache {
  private readonly targets: Lru<string, Target>;
  private readonly listeners: ((id: string) => void)[] = [];
  private hits = 0;
  private misses = 0;
  // Bumped by every change: a read that was under way meanwhile may be stale, and is used for its
  // own click but not cached (only an engine that answers later can have one under way).
  private changes = 0;

  constructor(
    entries: number,
    private readonly budget: ClickBudget,
  ) {
    this.targets = new Lru(entries);
  }

  /** The target of id: from memory, else read (and kept unless a change came meanwhile). */
  resolve(id: string, read: (id: string) => MaybePromise<Target | null>): MaybePromise<Target | null> {
    const hit = this.targets.get(id);
    if (hit !== undefined) {
      this.hits++;
      return hit;
    }
    this.misses++;
    const seen = this.changes;
    return then(read(id), (target) => {
      if (target !== null && this.changes === seen) this.targets.set(id, target);
      return target;
    });
  }

  /** Kept as it is now (a link just created or deleted: nothing was cached of it that could be newer). */
  set(id: string, target: Target): void {
    this.targets.set(id, target);
  }

  /** The link (or EVERY_LINK) changed: read again on its next click, and every listener told. A property, so it may be passed alone. */
  readonly forget = (id: string): void => {
    this.changes++;
    if (id === EVERY_LINK) this.targets.clear();
    else this.targets.delete(id);
    this.budget.changed(id);
    for (const listener of this.listeners) listener(id);
  };

  onChange(listener: (id: string) => void): void {
    this.listeners.push(listener);
  }

  stats(): { hits: number; misses: number } {
    return { hits: this.hits, misses: this.misses };
  }
}
