// The opt-out flags (docs/statistics.md: Not counting some clicks), each checked with a ConfigError
// naming how it was given: --no-count-from, --no-count-param, --do-not-track.

import { NO_OPT_OUTS, type OptOutSettings } from "../visits/opt-outs.ts";
import { checkAddresses, ConfigError } from "./values.ts";

/** A parameter name that needs no percent-encoding, so the click's query names it as written. */
const PARAM_NAME = /^[A-Za-z0-9_.~-]{1,64}$/;

export function optOutSettings(given: Map<string, string>, named: (flag: string) => string): OptOutSettings {
  const noCountFrom = given.get("no-count-from") ?? NO_OPT_OUTS.noCountFrom;
  checkAddresses(noCountFrom, named("no-count-from"));
  const param = given.get("no-count-param")?.trim() ?? "off";
  if (param !== "off" && !PARAM_NAME.test(param)) {
    throw new ConfigError(`${named("no-count-param")}: expected a query parameter name (letters, digits, _ . ~ -; at most 64) or off, got ${JSON.stringify(param)}`);
  }
  const doNotTrack = given.get("do-not-track") ?? NO_OPT_OUTS.doNotTrack;
  if (doNotTrack !== "count" && doNotTrack !== "skip") throw new ConfigError(`${named("do-not-track")}: expected count or skip, got ${doNotTrack}`);
  return Object.freeze({ noCountFrom, noCountParam: param === "off" ? null : param, doNotTrack });
}
