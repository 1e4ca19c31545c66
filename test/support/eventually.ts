// Waiting for something the service does in the background (a flush, a reload, a notification
// from another instance): probe until ok, or until the time is up. The last result is returned
// either way, so that the test's own assertion on it says what went wrong.

export async function eventually<T>(probe: () => Promise<T>, ok: (v: T) => boolean, withinMs = 15_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + withinMs;
  let v = await probe();
  while (!ok(v) && Date.now() < deadline) {
    await Bun.sleep(everyMs);
    v = await probe();
  }
  return v;
}
