// The API's error vocabulary: codes and the request fields they concern (docs/api.md: Errors). Shared
// by the HTTP surfaces, by the rules in src/links that decide which code a request earns, and by
// the OpenAPI document, which lists them from here.

export const ERROR_CODES = [
  "url_missing", "url_invalid", "url_too_long", "url_scheme", "url_credentials", "url_self", "url_local", "url_blocked",
  "alias_invalid", "alias_reserved", "alias_taken", "alias_retired",
  "expires_invalid", "expires_past", "max_clicks_invalid", "tags_invalid", "tag_taken", "title_invalid", "card_invalid",
  "rules_invalid", "variants_invalid", "password_invalid", "redirect_type_invalid", "valid_from_invalid",
  "password_required", "password_wrong", "password_locked",
  "rate_limited", "body_too_large", "unsupported_media_type", "bad_request", "too_many_rows",
  "auth_required", "auth_invalid", "auth_rate_limited", "auth_header_invalid", "origin_mismatch", "host_mismatch", "metrics_forbidden",
  "user_disabled", "group_not_allowed", "key_sign_in_off", "oidc_off",
  "oidc_provider_down", "oidc_state_mismatch", "oidc_provider_refused", "oidc_code_refused", "oidc_wrong_audience", "oidc_token_expired", "oidc_token_invalid",
  "id_missing", "bad_range", "not_found", "method_not_allowed", "import_running", "admin_only",
  "url_private", "events_invalid", "too_many_streams",
  "qr_invalid", "link_blocked",
  "label_invalid",
  "host_unknown", "domain_invalid", "domain_unknown", "domain_forbidden", "domain_taken", "domain_not_found", "domain_clash", "domain_has_links",
  "storage_unavailable", "internal",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The request field an error concerns, named as the client sent it. */
export const ERROR_FIELDS = [
  "url", "custom_url", "expires_at", "max_clicks", "tags", "title",
  "customUrl", "expiresAt", "maxClicks", "disabled",
  "rules", "variants", "password", "password_hash", "passwordHash", "redirect_type", "redirectType", "valid_from", "validFrom",
  "fallback_url", "fallbackUrl", "crawlable",
  "card_title", "cardTitle", "card_description", "cardDescription", "card_image", "cardImage", "ios_url", "iosUrl", "android_url", "androidUrl",
  "id", "from", "to", "bots",
  "q", "tag", "status", "sort", "order", "limit", "cursor", "include", "format", "ids", "key", "owner", "next",
  "events", "linkId", "enabled", "sourceDb", "domainMap", "domain", "name",
  "https", "rootRedirect", "notFoundRedirect", "fallbackRedirect", "robots", "creators", "isDefault", "moveLinksTo",
  "size", "margin", "level", "fg", "bg", "logo",
  "after",
  "label",
  "type",
] as const;
export type ErrorField = (typeof ERROR_FIELDS)[number];

/** One field's problem; a 400 that found several lists them all in `errors`. */
export type FieldProblem = { code: ErrorCode; field: ErrorField; error: string };
