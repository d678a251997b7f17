/**
 * Waits for what a test is told of by no event it can await (a count on a test server, a line
 * another process writes): checks `condition` every 10 ms and fails, naming `what`, once it
 * has not held for `limitMs`. The limit is generous: a busy machine is slow, not wrong.
 */
export async function waitUntil(
  condition: () => boolean,
  what: string,
  limitMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${limitMs / 1000} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
