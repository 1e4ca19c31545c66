// Links (docs/api.md: The management API): a create's fields, redirect rules, a link as its owner
// manages it, and its changes.

import { t, type TSchema } from "elysia";
import { LINK_STATUSES } from "../../links/link.ts";
import { MAX_TAGS } from "../../links/options.ts";
import { CONDITION_TYPES, DEVICES, MAX_CONDITIONS, MAX_RULES, MAX_VARIANTS, MAX_WEIGHT, MIN_VARIANTS, SYSTEMS } from "../../links/rules.ts";
import { MAX_PASSWORD_LENGTH, REDIRECT_TYPES } from "../../links/behaviour.ts";
import { CREATE_SPELLINGS, type CreateField } from "../../links/field-names.ts";
import { MAX_TITLE_LENGTH } from "../../links/title.ts";
import { MAX_CARD_DESCRIPTION_LENGTH, MAX_CARD_TITLE_LENGTH } from "../../links/card-fields.ts";
import { Count, NullableTime, Tag, Time, closed, ok, oneOf } from "./common.ts";

// Redirect rules (docs/redirect-rules.md: Redirect rules): the same shape in requests and answers.
export const Variant = t.Object({ url: t.String(), weight: t.Integer({ minimum: 1, maximum: MAX_WEIGHT }) }, closed);
export const Variants = t.Array(Variant, { minItems: MIN_VARIANTS, maxItems: MAX_VARIANTS, description: "a split by integer weights; a visitor keeps their variant for the UTC day" });
export const Condition = t.Union(
  [
    t.Object({ type: t.Literal("device"), value: oneOf(DEVICES) }, closed),
    t.Object({ type: t.Literal("os"), value: oneOf(Object.keys(SYSTEMS) as (keyof typeof SYSTEMS)[]) }, closed),
    t.Object({ type: t.Literal("browser"), value: t.String({ description: "a name as the stats show it: Chrome, Firefox, Safari, Edge, …" }) }, closed),
    t.Object({ type: t.Literal("language"), value: t.String({ description: "de (any region) or pt-BR; compared with the visitor's most preferred language" }) }, closed),
    t.Object({ type: t.Literal("country"), value: t.String({ pattern: "^[A-Za-z]{2}$", description: "ISO 3166 alpha-2" }) }, closed),
    t.Object({ type: t.Literal("query"), key: t.String(), value: t.Optional(t.String({ description: "without it, the parameter being present is enough" })) }, closed),
    t.Object({ type: t.Literal("cidr"), value: t.String({ description: "203.0.113.0/24, 2001:db8::/32, or one address" }) }, closed),
    t.Object({ type: t.Union([t.Literal("after"), t.Literal("before")]), value: t.String({ description: "ISO 8601 with a zone; after: from this instant, before: until it" }) }, closed),
  ],
  { description: `one of ${CONDITION_TYPES.join(", ")}` },
);
export const Rule = t.Object(
  { conditions: t.Array(Condition, { minItems: 1, maxItems: MAX_CONDITIONS }), url: t.Optional(t.String()), variants: t.Optional(Variants) },
  { ...closed, description: "all conditions must hold; then url, or a split among variants" },
);
export const Rules = t.Array(Rule, { maxItems: MAX_RULES, description: "the first rule whose conditions all hold gives the destination, else the link's own" });
export const RedirectType = t.Union(REDIRECT_TYPES.map((n) => t.Literal(n)), { description: "302 by default; 301 and 308 may be cached by browsers, and repeat clicks then go uncounted" });
// A link's preview card (docs/sharing.md: Preview cards) and its phone shortcuts (docs/managing-links.md: Links into apps on phones).
const CARD_TITLE = `the title preview agents show: at most ${MAX_CARD_TITLE_LENGTH} characters, one line; none: the link's title (never on a protected link)`;
const CARD_DESCRIPTION = `the description preview agents show: at most ${MAX_CARD_DESCRIPTION_LENGTH} characters, one line`;
const CARD_IMAGE = "the image preview agents show: an http(s) URL of at most 2,048 characters, checked as a destination (never an --allow-schemes scheme)";
const IOS_URL = "where visitors on iOS go: a rule whose only condition is os=ios, put first among the rules";
const ANDROID_URL = "where visitors on Android go: a rule whose only condition is os=android, put first among the rules";
const Warnings = t.Optional(t.Array(t.String(), { description: "what the owner should know about the link as saved (a permanent redirect)" }));

// A create's fields (docs/api.md: Create a short link): the spec's names in every body type; in JSON also
// the management API's camelCase names (src/links/field-names.ts), one spelling per field.
const createFields = {
  url: t.String({ description: "absolute http(s) URL, at most 2,048 characters" }),
  custom_url: t.Optional(t.String({ description: "alias: 3-30 letters, digits, hyphens, underscores; empty means none" })),
  expires_at: t.Optional(t.String({ description: "ISO 8601 time with a zone, or YYYY-MM-DD (the end of that UTC day); in the future" })),
  max_clicks: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.String({ pattern: "^\\s*\\d+\\s*$" })])),
  tags: t.Optional(t.Union([t.String({ description: "comma-separated" }), t.Array(Tag, { maxItems: MAX_TAGS })])),
  rules: t.Optional(Rules),
  variants: t.Optional(Variants),
  password: t.Optional(t.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH, description: "visitors must give it; stored only as an argon2id hash" })),
  redirect_type: t.Optional(t.Union([RedirectType, t.String({ pattern: "^30[1278]$" })])),
  valid_from: t.Optional(t.String({ description: "ISO 8601 with a zone; before it the link answers like an unknown id" })),
  fallback_url: t.Optional(t.String({ description: "where an expired, click-limited or disabled link sends visitors instead of its 410 page" })),
  crawlable: t.Optional(t.Union([t.Boolean(), t.String()])),
  domain: t.Optional(t.String({ description: "the name of the domain it goes on; absent or empty: the default domain (docs/api.md: Links on several domains)" })),
  title: t.Optional(t.String({ description: `what the link leads to, in the owner's words: at most ${MAX_TITLE_LENGTH} characters once whitespace is collapsed; empty means none` })),
  card_title: t.Optional(t.String({ description: `${CARD_TITLE}; empty means none` })),
  card_description: t.Optional(t.String({ description: `${CARD_DESCRIPTION}; empty means none` })),
  card_image: t.Optional(t.String({ description: `${CARD_IMAGE}; empty means none` })),
  ios_url: t.Optional(t.String({ description: `${IOS_URL}; empty means none` })),
  android_url: t.Optional(t.String({ description: `${ANDROID_URL}; empty means none` })),
};
const camelFields = Object.fromEntries(
  (Object.keys(createFields) as CreateField[]).filter((f) => CREATE_SPELLINGS[f] !== f).map((f) => [CREATE_SPELLINGS[f], createFields[f]]),
) as Record<string, TSchema>;
export const CreateForm = t.Object(createFields, {
  ...closed,
  description: "multipart/form-data (the spec's type) or urlencoded: these names only; any other name, a camelCase one included, is 400 bad_request",
});
export const CreateJson = t.Object(
  { ...createFields, ...camelFields },
  {
    ...closed,
    description: `each field under its spec name or its camelCase one (${Object.keys(camelFields).join(", ")}), never both (400 bad_request naming both); any other name is 400 bad_request`,
  },
);

export const Created = ok(t.Object({ shortUrl: t.String(), statsUrl: t.String(), warnings: Warnings }, closed));

const linkFields = {
  id: t.String({ description: "its alias, unique within its domain" }),
  domain: t.Union([t.String(), t.Null()], { description: "its domain's name; null on the default domain of an instance that knows no name (no --base-url, no domain)" }),
  shortUrl: t.String(),
  statsUrl: t.String(),
  originalUrl: t.String(),
  createdAt: Time,
  expiresAt: NullableTime,
  maxClicks: t.Union([t.Integer({ minimum: 1 }), t.Null()]),
  disabled: t.Boolean(),
  tags: t.Array(Tag),
  title: t.Union([t.String(), t.Null()], { description: `at most ${MAX_TITLE_LENGTH} characters: the owner's words, or the destination page's <title> when fetched (docs/link-titles.md: Link titles); null: none` }),
  status: oneOf(LINK_STATUSES),
  totalClicks: Count,
  humanClicks: Count,
  lastClickAt: NullableTime,
  rules: Rules,
  variants: t.Union([Variants, t.Null()]),
  passwordProtected: t.Boolean(),
  owner: t.Union([t.String(), t.Null()], { description: "who owns it: the user's name, else the key's; null for a public create" }),
  redirectType: RedirectType,
  validFrom: NullableTime,
  fallbackUrl: t.Union([t.String(), t.Null()]),
  crawlable: t.Boolean(),
  cardTitle: t.Union([t.String(), t.Null()], { description: `${CARD_TITLE}; null: not set` }),
  cardDescription: t.Union([t.String(), t.Null()], { description: `${CARD_DESCRIPTION}; null: not set` }),
  cardImage: t.Union([t.String(), t.Null()], { description: `${CARD_IMAGE}; null: not set` }),
  iosUrl: t.Union([t.String(), t.Null()], { description: `the URL of the first rule whose only condition is os=ios; null: none (${IOS_URL})` }),
  androidUrl: t.Union([t.String(), t.Null()], { description: `the URL of the first rule whose only condition is os=android; null: none` }),
  warnings: Warnings,
};
export const Link = t.Object(linkFields, { ...closed, description: "A link as the owner manages it" });
export const ListedLink = t.Object({ ...linkFields, daily: t.Optional(t.Array(Count, { minItems: 30, maxItems: 30, description: "with include=daily: clicks per UTC day of the last 30, today last" })) }, closed);

export const LinkResponse = ok(Link);
export const LinkPage = ok(t.Object({ links: t.Array(ListedLink), nextCursor: t.Union([t.String(), t.Null()]) }, closed));
export const Deleted = ok(t.Object({ id: t.String(), deleted: t.Literal(true) }, closed));

export const LinkChanges = t.Object(
  {
    url: t.Optional(t.String()),
    expiresAt: t.Optional(t.Union([t.String(), t.Null()])),
    maxClicks: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.String(), t.Null()])),
    disabled: t.Optional(t.Union([t.Boolean(), t.Null()])),
    tags: t.Optional(t.Union([t.Array(Tag, { maxItems: MAX_TAGS }), t.String(), t.Null()])),
    rules: t.Optional(t.Union([Rules, t.Null()])),
    variants: t.Optional(t.Union([Variants, t.Null()])),
    password: t.Optional(t.Union([t.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }), t.Null()])),
    redirectType: t.Optional(t.Union([RedirectType, t.Null()])),
    validFrom: t.Optional(t.Union([t.String(), t.Null()])),
    fallbackUrl: t.Optional(t.Union([t.String(), t.Null()])),
    crawlable: t.Optional(t.Union([t.Boolean(), t.Null()])),
    title: t.Optional(t.Union([t.String(), t.Null()])),
    cardTitle: t.Optional(t.Union([t.String({ description: CARD_TITLE }), t.Null()])),
    cardDescription: t.Optional(t.Union([t.String({ description: CARD_DESCRIPTION }), t.Null()])),
    cardImage: t.Optional(t.Union([t.String({ description: CARD_IMAGE }), t.Null()])),
    iosUrl: t.Optional(t.Union([t.String({ description: `${IOS_URL}; applied onto the rules this request gives, else the stored ones` }), t.Null()])),
    androidUrl: t.Optional(t.Union([t.String({ description: `${ANDROID_URL}; applied onto the rules this request gives, else the stored ones` }), t.Null()])),
  },
  {
    ...closed,
    description:
      "Any of these; null clears expiresAt, maxClicks, tags, rules, variants, password, validFrom, fallbackUrl, title, the card fields and the iosUrl/androidUrl rules (and sets redirectType to 302, crawlable to false)",
  },
);
