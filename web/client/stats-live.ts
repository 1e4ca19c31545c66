// The stats page's live view: GET /api/stats/live?id=…[&domain=…] as a stream; each visit goes to the page as
// it happens, and the "Live" mark shows while the stream is open. It pauses while the tab is hidden
// (the page reads everything again when it shows), so a background tab holds no stream.
import type { RecentVisit as Visit } from "../../src/api/types.ts";
import { byId } from "./common.ts";
import { dataOf, LiveStream } from "./sse.ts";

type Handlers = {
  onVisit: (visit: Visit) => void;
  /** Clicks of a busy link beyond the visits listed: counted, not listed. */
  onMore: (clicks: number, humans: number) => void;
  /** The stream opened again after a break: visits may have come meanwhile. */
  onReconnected: () => void;
};

/** `domain`: the link's, when the page names one ("" for the domain the page is on). */
export function watchLive(id: string, domain: string, handlers: Handlers): LiveStream {
  const mark = byId("live");
  let readyBefore = false;
  return new LiveStream(`/api/stats/live?${new URLSearchParams(domain === "" ? { id } : { id, domain })}`, {
    pauseWhenHidden: true,
    onState: (state) => {
      mark.hidden = state !== "open";
    },
    onMessage: (message) => {
      if (message.event === "ready") {
        if (readyBefore) handlers.onReconnected();
        readyBefore = true;
      } else if (message.event === "visit") {
        const data = dataOf<{ id: string; visit: Visit }>(message);
        if (data?.id === id && data.visit) handlers.onVisit(data.visit);
      } else if (message.event === "more") {
        const data = dataOf<{ id: string; clicks: number; humans: number }>(message);
        if (data?.id === id) handlers.onMore(data.clicks, data.humans);
      }
    },
  });
}
