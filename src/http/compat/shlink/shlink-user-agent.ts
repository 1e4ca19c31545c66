// A User-Agent for a stored visit (docs/shlink-api.md: Visits): we keep a visit's browser, OS and
// device names (src/visits/ua.ts), not its User-Agent, while Shlink's web client reads a visit's
// `userAgent` with bowser (shlink-web-component src/visits/services/VisitsParser.ts). So each
// (browser, OS, device) gets a string made for bowser to read back as the same browser and OS;
// test/unit/shlink-user-agent.test.ts checks every pair our tables can record.

const VERSION_CHROME = "120.0.0.0";
const WEBKIT = "AppleWebKit/537.36 (KHTML, like Gecko)";
const APPLE_WEBKIT = "AppleWebKit/605.1.15 (KHTML, like Gecko)";

/** Our browser names (families of src/visits/ua.ts, and ua-parser-js names kept as parsed) as bowser names them. */
export const BOWSER_BROWSER: Readonly<Record<string, string>> = {
  Chrome: "Chrome",
  Firefox: "Firefox",
  Safari: "Safari",
  Opera: "Opera",
  Edge: "Microsoft Edge",
  "Google App": "Google Search",
  "Samsung Internet": "Samsung Internet for Android",
  Vivaldi: "Vivaldi",
  Chromium: "Chromium",
  IE: "Internet Explorer",
  "Android Browser": "Android Browser",
  WeChat: "WeChat",
};

/** Our OS names (src/visits/ua.ts OS_FAMILY) as bowser names them. */
export const BOWSER_OS: Readonly<Record<string, string>> = {
  Windows: "Windows",
  macOS: "macOS",
  Linux: "Linux",
  ChromeOS: "Chrome OS",
  Android: "Android",
  iOS: "iOS",
};

type Place = { os: string; handheld: boolean; tablet: boolean };

/** The platform between the parentheses; an unknown OS has none bowser can name. */
function platform({ os, tablet }: Place): string {
  switch (os) {
    case "Windows":
      return "Windows NT 10.0; Win64; x64";
    case "macOS":
      return "Macintosh; Intel Mac OS X 10_15_7";
    case "Linux":
      return "X11; Linux x86_64";
    case "ChromeOS":
      return "X11; CrOS x86_64 14541.0.0";
    case "Android":
      return tablet ? "Linux; Android 14; SM-X710" : "Linux; Android 14; Pixel 8";
    case "iOS":
      return tablet ? "iPad; CPU OS 17_0 like Mac OS X" : "iPhone; CPU iPhone OS 17_0 like Mac OS X";
    default:
      return "compatible";
  }
}

/** The product tokens after the platform, per browser (iOS browsers name themselves their own way). */
function product(browser: string, place: Place): string {
  const ios = place.os === "iOS";
  const mobile = place.handheld && !place.tablet ? " Mobile" : "";
  const chrome = `${WEBKIT} Chrome/${VERSION_CHROME}${mobile} Safari/537.36`;
  switch (browser) {
    case "Chrome":
      return ios ? `${APPLE_WEBKIT} CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1` : chrome;
    case "Firefox":
      return ios ? `${APPLE_WEBKIT} FxiOS/121.0 Mobile/15E148 Safari/605.1.15` : "Gecko/20100101 Firefox/121.0";
    case "Safari":
      return `${APPLE_WEBKIT} Version/17.0${ios ? " Mobile/15E148" : ""} Safari/605.1.15`;
    case "Edge":
      return ios ? `${APPLE_WEBKIT} EdgiOS/120.0.2210.150 Mobile/15E148 Safari/605.1.15` : place.os === "Android" ? `${chrome} EdgA/120.0.2210.157` : `${chrome} Edg/120.0.2210.91`;
    case "Opera":
      return ios ? `${APPLE_WEBKIT} OPiOS/16.0.14 Mobile/15E148 Safari/9537.53` : `${chrome} OPR/106.0.0.0`;
    case "Google App":
      return `${APPLE_WEBKIT} GSA/300.0.598994205 Mobile/15E148 Safari/604.1`;
    case "Samsung Internet":
      return `${WEBKIT} SamsungBrowser/23.0 Chrome/115.0.0.0${mobile} Safari/537.36`;
    case "Vivaldi":
      return `${chrome} Vivaldi/6.5.3206.53`;
    case "Chromium":
      return `${WEBKIT} Chromium/120.0.6099.109 Chrome/${VERSION_CHROME}${mobile} Safari/537.36`;
    case "Android Browser":
      return "AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30";
    case "WeChat":
      return `${chrome} MicroMessenger/8.0.40`;
    default:
      // A bot's name, an app's, or Unknown: the name as a product token; bowser names it, or "Mozilla"
      // (never an empty string: bowser throws on one), which the web client shows as Others.
      return browser === "Unknown" || browser === "" ? "" : `${browser.replace(/[^A-Za-z0-9._-]+/g, "")}/1.0`;
  }
}

/** A User-Agent bowser reads as this visit's browser and OS (our names; device: desktop, mobile, tablet, …). */
export function synthesizedUserAgent(browser: string, os: string, device: string): string {
  const place: Place = { os, handheld: device === "mobile" || device === "tablet" || os === "Android" || os === "iOS", tablet: device === "tablet" };
  // Internet Explorer names itself inside the parentheses only.
  if (browser === "IE") return `Mozilla/5.0 (${platform(place)}; Trident/7.0; rv:11.0) like Gecko`;
  const tail = product(browser, place);
  return `Mozilla/5.0 (${platform(place)})${tail === "" ? "" : ` ${tail}`}`;
}
