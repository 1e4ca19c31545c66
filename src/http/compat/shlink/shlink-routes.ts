// Every route of the Shlink surface (docs/shlink-api.md: Shlink API), one list per subject.

import { HEALTH_ROUTES } from "./shlink-health.ts";
import type { ShlinkRoute } from "./shlink-route.ts";
import { DOMAIN_ROUTES } from "./shlink-domains.ts";
import { RULE_ROUTES } from "./shlink-rules.ts";
import { SHORT_URL_ROUTES } from "./shlink-short-urls.ts";
import { TAG_ROUTES } from "./shlink-tags.ts";
import { VISITS_ROUTES } from "./shlink-visits.ts";

export const SHLINK_ROUTES: readonly ShlinkRoute[] = [
  ...HEALTH_ROUTES,
  ...DOMAIN_ROUTES,
  ...RULE_ROUTES,
  ...SHORT_URL_ROUTES,
  ...TAG_ROUTES,
  ...VISITS_ROUTES,
];
