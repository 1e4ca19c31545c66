// "● Live · Clicks since you opened this page: N": GET /api/stats/live (every link this session may
// see) as a stream, adding up its `clicks` events. Shown only while the stream is open; it stays
// open in a background tab, or the count would miss what came meanwhile.
import { byId, formatNumber, t } from "../common.ts";
import { dataOf, LiveStream } from "../sse.ts";

export class LiveCounter {
  private readonly box = byId("live-counter");
  private readonly count = byId("live-count");
  private stream: LiveStream | null = null;
  private clicks = 0;

  /** Counts from zero (signed in, or in again as someone else). */
  start(): void {
    this.stop();
    this.clicks = 0;
    this.show();
    this.stream = new LiveStream("/api/stats/live", {
      onState: (state) => {
        this.box.hidden = state !== "open";
      },
      onMessage: (message) => {
        if (message.event !== "clicks") return;
        const clicks = dataOf<{ clicks: number }>(message)?.clicks;
        if (typeof clicks !== "number" || !(clicks > 0)) return;
        this.clicks += clicks;
        this.show();
      },
    });
  }

  stop(): void {
    this.stream?.close();
    this.stream = null;
    this.box.hidden = true;
  }

  private show(): void {
    this.box.dataset.clicks = String(this.clicks); // the plain number, for tests
    this.count.textContent = t("live_clicks", { count: formatNumber(this.clicks) });
  }
}
