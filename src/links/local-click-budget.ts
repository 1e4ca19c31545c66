// The click budget of one process that owns its database (SQLite); see ClickBudget in store.ts.

import type { ClickBudget } from "./store.ts";

/**
 * The click budget of a process that alone answers a database's clicks (SQLite): counted here, on
 * the one thread that answers clicks, so exactly max_clicks clicks are let through however many
 * arrive at once. The count starts from the recorded total and runs ahead of it by what the
 * recorder has not written yet.
 */
export function localClickBudget(): ClickBudget {
  // Never evicted, nor forgotten on an edit: a count re-read from the database would miss the
  // clicks still on their way to it.
  const answered = new Map<string, number>();
  return {
    spend(id, target, click) {
      const rules = target.rules!;
      // The larger: clicks counted here may be ahead of the recorded total by a flush, but not
      // after the limit was cleared for a while (then only the total went on counting).
      const used = Math.max(answered.get(id) ?? 0, rules.clicks);
      if (used >= rules.maxClicks!) return rules.expired;
      if (click) answered.set(id, used + 1);
      return target;
    },
    answered: (id) => answered.get(id),
    changed: () => {},
    deleted: (id) => answered.delete(id),
  };
}
