// A one-line progress bar on a TTY (stderr); silent otherwise.
export function progressBar(enabled: boolean) {
  const tty = enabled && process.stderr.isTTY;
  let last = -1;
  return {
    update(stage: string, f: number) {
      if (!tty) return;
      const pct = Math.floor(f * 100);
      if (pct === last) return;
      last = pct;
      const w = 30, fill = Math.round((w * pct) / 100);
      process.stderr.write(`\r${stage.padEnd(22)} [${'#'.repeat(fill)}${'.'.repeat(w - fill)}] ${String(pct).padStart(3)}%`);
    },
    done() { if (tty) { process.stderr.write('\r\x1b[2K'); last = -1; } },
  };
}
