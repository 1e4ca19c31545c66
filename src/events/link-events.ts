// The events a link's create, edit and delete write with them (in their transaction), when some
// webhook wants them: the link store calls these (src/links/store.ts LinkEvents).

import type { LinkEvents } from "../links/store.ts";
import { linkCreated, linkDeleted, linkGone, linkUpdated } from "./payloads.ts";
import type { EventBase } from "./event-domains.ts";
import type { OutboxEvent } from "./types.ts";
import type { EventWants } from "./wants.ts";

/**
 * `base`: where a link's short URL is, by its stored domain (event-domains.ts eventBase; null: no shortUrl). `written`: told (after the
 * current task, by when SQLite's transaction is committed) that events were written: the delivery
 * thread looks at once instead of at its next tick.
 */
export function linkEvents(wants: EventWants, base: EventBase, now: () => number, written: () => void = () => {}): LinkEvents {
  const told = <T extends OutboxEvent[]>(events: T): T => {
    if (events.length > 0) setTimeout(written, 0);
    return events;
  };
  return {
    created: (link) => (wants.has("link.created") ? told([linkCreated(link, base(link.domain), now())]) : []),
    updated: () =>
      wants.has("link.updated") || wants.has("link.gone")
        ? (after, before, changed) => {
            const out: OutboxEvent[] = [];
            if (wants.has("link.updated")) out.push(linkUpdated(after, changed, base(after.domain), now()));
            if (wants.has("link.gone") && after.disabled && !before.disabled) out.push(linkGone(after, "disabled", after.tags, now()));
            return told(out);
          }
        : null,
    deleted: () => (wants.has("link.deleted") ? (link) => told([linkDeleted(link, base(link.domain), now())]) : null),
  };
}
