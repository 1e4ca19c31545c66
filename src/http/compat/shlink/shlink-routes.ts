// Every route of the Shlink surface (docs/shlink-api.md: Shlink API), one list per subject.

import type { ShlinkRoute } from "./shlink-route.ts";
import { SHORT_URL_ROUTES } from "./shlink-short-urls.ts";

export const SHLINK_ROUTES: readonly ShlinkRoute[] = [
  ...SHORT_URL_ROUTES,
];
