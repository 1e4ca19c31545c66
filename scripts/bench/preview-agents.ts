// Microbench (not a test): what isPreviewAgent (src/visits/preview-agents.ts) adds to a click of a
// link WITH a card, the only clicks that ask it. A/B in one run, alternating rounds: the User-Agent
// header read alone (what record() does anyway) against the read plus the check, over people's
// browser strings and a few agents'. Prints the median ratio; absolute figures drift on a shared machine.
//   bun scripts/bench/preview-agents.ts
import { isPreviewAgent } from "../../src/visits/preview-agents.ts";
import { BROWSERS, LINK_PREVIEW_FETCHERS } from "../../test/fixtures/user-agents.ts";
const uas = BROWSERS.map((b) => b.ua!).concat(LINK_PREVIEW_FETCHERS.slice(0, 4).map((f) => f.ua));
const heads = uas.map((ua) => new Headers({ "user-agent": ua, accept: "*/*", host: "s.example" }));
const N = 200_000;
let sink = 0;
function a() { for (let i = 0; i < N; i++) { const ua = heads[i % heads.length]!.get("user-agent"); sink += ua === null ? 0 : 1; } }
function b() { for (let i = 0; i < N; i++) { const ua = heads[i % heads.length]!.get("user-agent"); sink += isPreviewAgent(ua) ? 1 : 0; } }
const ta: number[] = [], tb: number[] = [];
for (let r = 0; r < 30; r++) {
  let t = performance.now(); a(); ta.push(performance.now() - t);
  t = performance.now(); b(); tb.push(performance.now() - t);
}
const med = (x: number[]) => x.sort((p, q) => p - q)[x.length >> 1]!;
console.log(`header read: ${(med(ta) / N * 1e6).toFixed(0)} ns; + isPreviewAgent: ${(med(tb) / N * 1e6).toFixed(0)} ns; ratio ${(med(tb) / med(ta)).toFixed(2)}; extra ${((med(tb) - med(ta)) / N * 1e6).toFixed(0)} ns (sink ${sink})`);
// browsers only, the check alone
const bro = BROWSERS.map((b) => b.ua!);
let t = performance.now(); for (let i = 0; i < N * 5; i++) sink += isPreviewAgent(bro[i % bro.length]!) ? 1 : 0;
console.log(`isPreviewAgent on browsers alone: ${((performance.now() - t) / (N * 5) * 1e6).toFixed(0)} ns/call`);
