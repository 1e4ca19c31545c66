// Visit profiles: the values a visit has beside its link, time, country and visitor, one shared
// object per distinct set of values. Clicks repeat a few agents, referrers and destinations many
// times over, so a batch of thousands of visits holds far fewer profiles: summing and storing it
// per profile is cheaper than per visit (rollup.ts, visit-batch.ts). The country stays out: with it
// the combinations would multiply by the countries seen.

import type { Visit, VisitProfile } from "./visit.ts";

type ProfileFields = Omit<VisitProfile, "storedHead" | "storedTail">;

/** A new profile of these values, with its stored form. */
export function makeProfile(f: ProfileFields): VisitProfile {
  const storedHead = `${JSON.stringify([f.browser, f.os, f.device]).slice(1, -1)},`;
  const storedTail = `,${JSON.stringify([f.referrer, f.utmSource, f.utmMedium, f.utmCampaign, f.isBot ? 1 : 0]).slice(1)}`;
  return { browser: f.browser, os: f.os, device: f.device, referrer: f.referrer, utmSource: f.utmSource, utmMedium: f.utmMedium, utmCampaign: f.utmCampaign, isBot: f.isBot, storedHead, storedTail };
}

const SEP = "\u0000";

/** A visit's profile: its own, or for visits made without one (seeding, tests) one shared by equal values. */
export function profileResolver(): (v: Visit) => VisitProfile {
  let made: Map<string, VisitProfile> | null = null;
  return (v) => {
    if (v.profile !== undefined) return v.profile;
    made ??= new Map();
    const key = [v.browser, v.os, v.device, v.referrer, v.utmSource ?? SEP, v.utmMedium ?? SEP, v.utmCampaign ?? SEP, v.isBot ? 1 : 0].join(SEP + SEP);
    let p = made.get(key);
    if (p === undefined) made.set(key, (p = makeProfile(v)));
    return p;
  };
}
