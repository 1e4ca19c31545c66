// Builds Shlink's web UI host page into .cache/shlink-web/ (installing test/shlink-web's packages
// with `npm ci` first when they are missing): `bun test/shlink-web/build.ts`. The browser test
// does the same by itself on its first run; this is for CI's cache warm-up and for trying it by hand.
import { shlinkWebSite } from "../support/shlink-web.ts";

console.log(await shlinkWebSite());
