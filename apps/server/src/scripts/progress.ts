const BAR_WIDTH = 30;

/** One progress line: `[#######.......]  45% label: message`. */
export function progressBar(label: string, fraction: number, message: string): string {
  const filled = Math.round(fraction * BAR_WIDTH);
  const percent = `${Math.round(fraction * 100)}%`.padStart(4);
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${percent} ${label}: ${message}`;
}

/** Where a progress line goes: stdout, or a stand-in in tests. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * A command's progress on `out`: one line redrawn in place on a terminal; on anything else (a
 * pipe, a log file) a line of its own each time another tenth is reached, so logs stay short.
 */
export function progressLine(out: ProgressOutput, label: string) {
  const tty = out.isTTY === true;
  const clearLine = tty ? '\r\x1b[2K' : '';
  let lastTenth = -1;
  let lastLine = '';
  return {
    draw(fraction: number, message: string): void {
      if (tty) out.write(`${clearLine}${progressBar(label, fraction, message)}`);
      else if (Math.floor(fraction * 10) > lastTenth) {
        lastTenth = Math.floor(fraction * 10);
        lastLine = progressBar(label, fraction, message);
        out.write(`${lastLine}\n`);
      }
    },
    /** The last state, for good (unless that line was just written), then `after` on lines of their own. */
    end(fraction: number, message: string, ...after: string[]): void {
      const bar = progressBar(label, fraction, message);
      const last = tty || bar !== lastLine ? `${clearLine}${bar}\n` : '';
      out.write(`${last}${after.map((line) => `${line}\n`).join('')}`);
    },
  };
}
