// Bot detection: isbot, plus the few automated requests it does not flag.
// isbot 5 already covers HeadlessChrome and every common link-preview fetcher (Slackbot,
// Slack-ImgProxy, Discordbot, WhatsApp/Signal "WhatsApp/2", TelegramBot, facebookexternalhit,
// Twitterbot, LinkedInBot, SkypeUriPreview, Iframely, Embedly, redditbot, Applebot, Mastodon,
// Pleroma...); test/unit/bots.test.ts pins that, so an isbot upgrade that drops one fails loudly.

import { isbot } from "isbot";

// Discord's media proxy re-fetches links with this fixed, decade-old browser string instead of
// Discordbot (discord/discord-api-docs#1600, #3872). No real visitor runs Firefox 38 on OS X 10.10.
export const DISCORD_MEDIA_PROXY = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.10; rv:38.0) Gecko/20100101 Firefox/38.0";

// Page testers and screenshot services that drive a real browser engine. isbot lists them as browsers on
// purpose (its fixtures/browsers.yml: such tools should get the real page); for a click count they are not
// visitors. Each token is the service's own name, which no browser sends:
//   GTmetrix       page-speed reports (gtmetrix.com), appended to its Chrome string
//   YLT Chrome/    Yellow Lab Tools front-end audits (yellowlab.tools)
//   Miniature.io/  website thumbnails (miniature.io), on a QtWebEngine string
// One regex, run only when the classifier's cache misses.
const AUTOMATED_BROWSERS = /\bGTmetrix\b|\bYLT Chrome\/|\bMiniature\.io\//;

/** True for crawlers, scripts, headless browsers and link-preview fetchers; a missing, empty or blank UA counts as a bot. */
export function isBotUserAgent(userAgent: string | null): boolean {
  // isbot treats null, "" and whitespace-only as human; a real browser always sends a User-Agent.
  if (!userAgent?.trim()) return true;
  if (userAgent === DISCORD_MEDIA_PROXY) return true;
  return isbot(userAgent) || AUTOMATED_BROWSERS.test(userAgent);
}
