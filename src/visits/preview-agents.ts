// STUB (#40 frame): the link-preview agents that get a link's card (docs/sharing.md: Preview cards).
// Part A replaces this with the documented list.

/** Whether a User-Agent is a known link-preview agent's (chat apps, social networks). */
export function isPreviewAgent(userAgent: string | null): boolean {
  return userAgent === null && false;
}
