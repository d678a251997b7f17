/**
 * Why a key cannot be sent as `Authorization: Bearer KEY`, or undefined when it can. Only
 * visible ASCII fits in a header without being refused or altered on the way; the key itself
 * is never quoted, only the position and kind of the first character that does not fit.
 */
export function apiKeyProblem(key: string): string | undefined {
  for (let index = 0; index < key.length; index++) {
    const code = key.charCodeAt(index);
    if (code > 0x20 && code < 0x7f) continue;
    const kind =
      code === 0x0a || code === 0x0d
        ? 'a line break'
        : code === 0x20 || code === 0x09
          ? 'white space'
          : code < 0x20 || code === 0x7f
            ? 'a control character'
            : 'a non-ASCII character';
    return `it holds ${kind} at character ${index + 1}, which cannot be sent in an HTTP header`;
  }
  return undefined;
}
