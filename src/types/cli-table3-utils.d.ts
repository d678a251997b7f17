// cli-table3's measuring helpers (src/utils.js): display width and cutting to a width, ANSI
// and wide characters counted as a terminal shows them. The package ships no types for them.
declare module 'cli-table3/src/utils.js' {
  const utils: {
    strlen(text: string): number;
    truncate(text: string, width: number, ellipsis?: string): string;
  };
  export default utils;
}
