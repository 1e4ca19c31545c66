// Every route of the Shlink surface (docs/shlink-api.md: Shlink API), one list per subject.

import type { ShlinkRoute } from "./shlink-route.ts";
import { VISITS_ROUTES } from "./shlink-visits.ts";

export const SHLINK_ROUTES: readonly ShlinkRoute[] = [
  ...VISITS_ROUTES,
];
