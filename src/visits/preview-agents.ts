// The link-preview agents that get a link's card instead of its redirect (docs/sharing.md: Preview
// cards): chat apps and social networks fetching a pasted link to draw a card. Only these, never
// "any bot": a card given to Googlebot, bingbot or an AI crawler would be what they index, and curl
// and monitors must see where the link goes (#40 contract, decision 3).
//
// Asked on every click of a link WITH a card (redirect.ts), never on a link without one. So the test
// is one header already read, a length check, one string compare and one precompiled regex of
// literal tokens: case-sensitive (each agent spells its token one way), no per-call allocation.

// Discord's media proxy's fixed Firefox 38 string: no visitor runs that browser.
import { DISCORD_MEDIA_PROXY } from "./bots.ts";

/** One agent: its name in the stats (src/visits/bot-names.ts names its User-Agent so), what is matched, and where that comes from. */
export type PreviewAgent = {
  readonly name: string;
  /** regex source: at the start of the User-Agent (the agent names itself first) */
  readonly starts?: string;
  /** regex source: anywhere inside a browser-like ("Mozilla/5.0 …") User-Agent */
  readonly inside?: string;
  /** the exact User-Agent, for an agent that sends a browser's string without a token of its own */
  readonly exact?: string;
  readonly source: string;
};


// Sources: the vendor's page where there is one; "in the UA" where the agent's own string names its page.
export const PREVIEW_AGENTS: readonly PreviewAgent[] = [
  { name: "Slackbot", starts: "Slackbot-LinkExpanding ", source: "https://api.slack.com/robots" },
  { name: "Discordbot", inside: "Discordbot/", source: "https://opengraphplus.com/consumers/discord/issues/no-embed-showing" },
  { name: "Discordbot", exact: DISCORD_MEDIA_PROXY, source: "https://github.com/discord/discord-api-docs/issues/1600" },
  // Signal sends WhatsApp's own string on purpose ("WhatsApp/2"): one entry serves both.
  { name: "WhatsApp", starts: "WhatsApp/", source: "https://developers.facebook.com/docs/whatsapp/link-previews ; Signal: https://signal.org/blog/i-link-therefore-i-am/" },
  { name: "TelegramBot", starts: "TelegramBot \\(like TwitterBot\\)", source: "no document found; the string as Telegram sends it (test/fixtures/user-agents.ts)" },
  { name: "Twitterbot", starts: "Twitterbot/", inside: "\\(compatible; Twitterbot/", source: "https://prerenderproxy.com/bot-directory/twitterbot/ (X documents the card tags, not the string)" },
  // Facebook, Messenger and Instagram share one fetcher. Not Facebot alone or meta-externalagent (crawlers).
  { name: "Facebook", starts: "facebookexternalhit/", source: "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers/" },
  // Apple's Messages: a Safari string that carries Facebook's and X's tokens.
  { name: "iMessage", inside: "facebookexternalhit/1\\.1 Facebot Twitterbot/", source: "https://blog.aaronsdevera.com/posts/20230921-what-link-previews-leak" },
  { name: "LinkedInBot", starts: "LinkedInBot/", source: "http://www.linkedin.com (in the UA); no document of the string found" },
  { name: "Skype", inside: "SkypeUriPreview ", source: "skype-url-preview@microsoft.com (in the UA)" },
  { name: "MicrosoftPreview", inside: "MicrosoftPreview/", source: "https://aka.ms/MicrosoftPreview (in the UA)" },
  { name: "Google-PageRenderer", inside: "Google-PageRenderer ", source: "https://developers.google.com/+/web/snippet/ (in the UA)" },
  { name: "Mastodon", starts: "Mastodon/|http\\.rb/[0-9.]+ \\(Mastodon/", source: "the server's own string, with its address (in the UA); the fetch per receiving server: mastodon/mastodon#21861" },
  { name: "Pleroma", starts: "Pleroma ", source: "the server's own string, with its address (in the UA)" },
  { name: "Misskey", starts: "Misskey/", source: "the server's own string, with its address (in the UA)" },
  { name: "Bluesky", inside: "Bluesky Cardyb/", source: "mailto:support@bsky.app (in the UA)" },
  { name: "Pinterestbot", inside: "Pinterestbot/", source: "http://www.pinterest.com/bot.html (in the UA)" },
  { name: "Snapchat", starts: "Snap URL Preview Service", source: "https://developers.snap.com/robots (in the UA)" },
  { name: "redditbot", inside: "redditbot/", source: "http://www.reddit.com/feedback (in the UA)" },
  { name: "vkShare", inside: "vkShare;", source: "http://vk.com/dev/Share (in the UA)" },
  { name: "Viber", starts: "Viber(?:$|/)", source: "no document found; the string as Viber sends it (test/fixtures/user-agents.ts)" },
  { name: "Embedly", inside: "Embedly/", source: "http://support.embed.ly/ (in the UA)" },
  { name: "Iframely", starts: "Iframely/", source: "https://iframely.com/docs/about (in the UA)" },
];

/** Shorter than any agent's string ("Viber"), or longer than the recorder keeps (src/visits/ua.ts MAX_UA_LENGTH). */
const MIN_LENGTH = 5;
const MAX_LENGTH = 512;

const group = (parts: readonly (string | undefined)[]) => parts.filter((p) => p !== undefined).join("|");
// Two regexes, chosen by the start: browsers (and agents posing as one) start with "Mozilla/",
// and are searched for the inner tokens; the rest are agents naming themselves first, tested at the start only.
const STARTS = new RegExp(`^(?:${group(PREVIEW_AGENTS.map((a) => a.starts))})`);
const INSIDE = new RegExp(group(PREVIEW_AGENTS.map((a) => a.inside)));

/** Whether a User-Agent is a listed link-preview agent's (the table above). */
export function isPreviewAgent(userAgent: string | null): boolean {
  if (userAgent === null || userAgent.length < MIN_LENGTH || userAgent.length > MAX_LENGTH) return false;
  if (!userAgent.startsWith("Mozilla/")) return STARTS.test(userAgent);
  return userAgent === DISCORD_MEDIA_PROXY || INSIDE.test(userAgent);
}
