// What the share links' operations need (docs/statistics.md: Sharing statistics): the links (who
// may manage a link's shares is who may change it: src/ops/links/get.ts visibleLink), the shares, the log.

import type { Logger } from "../../log.ts";
import type { LinkStore } from "../../links/store.ts";
import type { ShareStore } from "../../stats/shares.ts";

export type ShareOpsDeps = { links: LinkStore; shares: ShareStore; log: Logger; now: () => number };
