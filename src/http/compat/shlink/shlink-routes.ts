// Every route of the Shlink surface (docs/shlink-api.md: Shlink API), one list per subject.

import type { ShlinkRoute } from "./shlink-route.ts";
import { TAG_ROUTES } from "./shlink-tags.ts";

export const SHLINK_ROUTES: readonly ShlinkRoute[] = [
  ...TAG_ROUTES,
];
