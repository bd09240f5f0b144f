import { SingleBar } from 'cli-progress';
import { ImportProgress, ImportSummary } from './importer';

/**
 * Progress of an import on the command line: a bar on a terminal (bytes of the file read, rows,
 * rows/s), plain lines otherwise (logs, CI), one at most every `everyMs`.
 */
export function progressReporter(out: NodeJS.WriteStream, totalBytes: number | null, label: string) {
  const started = performance.now();
  const rate = (rows: number) => Math.round(rows / Math.max((performance.now() - started) / 1000, 0.001));
  if (out.isTTY && totalBytes) {
    const bar = new SingleBar({
      format: `${label} [{bar}] {percentage}% | {rows} rows | {rate} rows/s | {phase}`,
      stream: out,
      hideCursor: true,
      clearOnComplete: false,
    });
    bar.start(totalBytes, 0, { rows: 0, rate: 0, phase: 'reading' });
    return {
      onProgress: (p: ImportProgress) => bar.update(Math.min(p.bytes, totalBytes), { rows: p.rows, rate: rate(p.rows), phase: p.phase }),
      stop: () => bar.stop(),
    };
  }
  let last = '';
  return {
    onProgress: (p: ImportProgress) => {
      const percent = totalBytes ? ` ${Math.min(100, Math.floor((p.bytes / totalBytes) * 100))}%` : '';
      const line = `${label}: ${p.phase}${p.phase === 'reading' ? percent : ''}, ${p.rows} rows, ${rate(p.rows)} rows/s`;
      if (line !== last) out.write(`${line}\n`);
      last = line;
    },
    stop: () => undefined,
  };
}

export function formatSummary(s: ImportSummary): string {
  const counts = Object.entries(s.counts).map(([k, v]) => `${k} ${v}`).join(', ');
  return `Imported ${s.kind}${s.producerId ? ` for producer ${s.producerId}` : ''}: ${s.rows} row${s.rows === 1 ? '' : 's'}${counts ? ` (${counts})` : ''} in ${s.seconds.toFixed(2)} s, ${Math.round(s.rowsPerSecond)} rows/s`;
}
