// The copy's check of each link's clicks (docs/postgresql.md: Moving to PostgreSQL and back): both
// databases list their links in the same order and the two lists are walked side by side, so that
// 100,000 links are compared without holding either list.

/** A link's figures that both databases must agree on. */
export type LinkClicks = {
  id: string;
  /** the stored domain ('' the default): the same alias may be on two domains */
  domain: string;
  /** links.total_clicks and human_clicks: what the list and the overview show */
  total: number;
  humans: number;
  /** the sum of its daily_rollup totals: what its statistics add up to */
  daily: number;
  /** its raw visits (in visit_batches) */
  visits: number;
};

export type ClicksCheck = {
  links: number;
  /** the source's clicks and raw visits over every link */
  clicks: number;
  visits: number;
  /** the first links that differ (null: missing on that side), and how many differ in all */
  differing: { id: string; source: LinkClicks | null; copied: LinkClicks | null }[];
  differingCount: number;
};

const LISTED = 10;

/** Walks both lists, ordered by id byte-wise (SQLite's BINARY, PostgreSQL's COLLATE "C"). */
export async function compareClicks(source: AsyncIterable<LinkClicks>, copied: AsyncIterable<LinkClicks>): Promise<ClicksCheck> {
  const check: ClicksCheck = { links: 0, clicks: 0, visits: 0, differing: [], differingCount: 0 };
  const differ = (id: string, from: LinkClicks | null, to: LinkClicks | null) => {
    check.differingCount++;
    if (check.differing.length < LISTED) check.differing.push({ id, source: from, copied: to });
  };
  const a = source[Symbol.asyncIterator]();
  const b = copied[Symbol.asyncIterator]();
  let x = await a.next();
  let y = await b.next();
  while (!x.done || !y.done) {
    const order = x.done ? 1 : y.done ? -1 : byteOrder(x.value.id, y.value.id) || byteOrder(x.value.domain, y.value.domain);
    if (order <= 0) {
      const from = x.value as LinkClicks;
      check.links++;
      check.clicks += from.total;
      check.visits += from.visits;
    }
    if (order === 0) {
      if (!sameClicks(x.value as LinkClicks, y.value as LinkClicks)) differ((x.value as LinkClicks).id, x.value as LinkClicks, y.value as LinkClicks);
      [x, y] = [await a.next(), await b.next()];
    } else if (order < 0) {
      differ((x.value as LinkClicks).id, x.value as LinkClicks, null);
      x = await a.next();
    } else {
      differ((y.value as LinkClicks).id, null, y.value as LinkClicks);
      y = await b.next();
    }
  }
  return check;
}

function sameClicks(a: LinkClicks, b: LinkClicks): boolean {
  return a.total === b.total && a.humans === b.humans && a.daily === b.daily && a.visits === b.visits;
}

/** Byte order of the UTF-8 forms, which is how both databases sort ids (JavaScript's < compares UTF-16). */
function byteOrder(a: string, b: string): number {
  return a === b ? 0 : Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
