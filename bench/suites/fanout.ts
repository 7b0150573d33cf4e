import { api } from '../lib/api.ts';
import { tokenFor, type DatasetInfo } from '../lib/dataset.ts';
import { percentile } from '../lib/load.ts';
import type { Row } from '../lib/report.ts';
import type { RunningProcess } from '../lib/server.ts';
import { openSockets } from '../lib/sockets.ts';

const DELIVERY_TIMEOUT_MS = 30_000;
const round2 = (n: number) => Math.round(n * 100) / 100;

export interface FanoutResult {
  rows: Row[];
  /** Server RSS (bytes) with every socket open, per process. */
  rssWithSockets: number[];
  rounds: Array<{
    p50: number;
    p99: number;
    max: number;
    delivered: number;
    missing: number;
    publishMs: number;
  }>;
}

/**
 * The star author's followers all connect to /ws (spread over the given server processes); the
 * star publishes a new chapter of the published book through the first process; every socket
 * notes when the CHAPTER notification for it arrives. Latency is from sending the publishing PUT.
 * Each round publishes a new chapter.
 */
export async function measureFanout(options: {
  servers: RunningProcess[];
  info: DatasetInfo;
  followers: number;
  rounds: number;
  targetP99Ms: number;
  label: { engine: string; size: string; name: string };
  log: (line: string) => void;
}): Promise<FanoutResult> {
  const { servers, info, label, log } = options;
  const count = Math.min(options.followers, info.followers);
  const urls = Array.from({ length: count }, (_, i) => {
    const server = servers[i % servers.length]!;
    return `${server.url.replace('http', 'ws')}/ws?token=${tokenFor(info.tokenSeed, info.followersFrom + i)}`;
  });
  const connectStarted = performance.now();
  const opened = await openSockets(urls);
  log(
    `  ${count} sockets open in ${((performance.now() - connectStarted) / 1000).toFixed(1)} s on ${servers.length} process(es)`,
  );
  // Let the handshakes' work (session lookups) finish before measuring memory and publishing.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const rssWithSockets = servers.map((s) => s.rss());
  const starToken = tokenFor(info.tokenSeed, info.star.id);
  const rounds: FanoutResult['rounds'] = [];
  let dropped: number;
  try {
    for (let round = 0; round < options.rounds; round++) {
      const chapter = await api<{ id: number }>(
        servers[0]!.url,
        'POST',
        `/api/books/${info.star.bookId}/chapters`,
        {
          token: starToken,
          body: {
            title: `Fan-out ${Date.now()} ${round}`,
            content: '<p>News for every follower.</p>',
          },
        },
      );
      const latencies: number[] = [];
      let t0 = 0;
      const marker = `"chapter_id":${chapter.id}`;
      let finish = () => {};
      const allArrived = new Promise<void>((resolve) => (finish = resolve));
      const listeners = opened.sockets.map((socket) => {
        const onMessage = (data: Buffer) => {
          const text = data.toString();
          if (!text.includes(marker)) return;
          latencies.push(performance.now() - t0);
          if (latencies.length === count) finish();
        };
        socket.on('message', onMessage);
        return () => socket.off('message', onMessage);
      });
      const timer = setTimeout(finish, DELIVERY_TIMEOUT_MS);
      t0 = performance.now();
      await api(servers[0]!.url, 'PUT', `/api/books/${info.star.bookId}/chapters/${chapter.id}`, {
        token: starToken,
        body: { is_published: true },
      });
      const publishMs = performance.now() - t0;
      await allArrived;
      clearTimeout(timer);
      for (const stop of listeners) stop();
      const sorted = Float64Array.from(latencies).sort();
      const result = {
        p50: round2(percentile(sorted, 50)),
        p99: round2(percentile(sorted, 99)),
        max: round2(sorted.length ? sorted[sorted.length - 1]! : 0),
        delivered: latencies.length,
        missing: count - latencies.length,
        publishMs: round2(publishMs),
      };
      rounds.push(result);
      log(
        `  round ${round + 1}: delivered ${result.delivered}/${count}, p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms (PUT answered in ${result.publishMs} ms)`,
      );
    }
    dropped = opened.closed();
  } finally {
    await opened.closeAll();
  }
  // The worst round is the one reported: a first publication after start-up counts as much as a warm one.
  const worst = rounds.reduce((a, b) => (b.p99 > a.p99 ? b : a));
  const missing = rounds.reduce((sum, r) => sum + r.missing, 0) + dropped;
  return {
    rssWithSockets,
    rounds,
    rows: [
      {
        suite: 'fanout',
        name: label.name,
        engine: label.engine,
        size: label.size,
        p50: worst.p50,
        p99: worst.p99,
        max: worst.max,
        value: count,
        unit: 'sockets',
        errors: missing,
        target: `p99 ≤ ${options.targetP99Ms} ms`,
        pass: missing === 0 && worst.p99 <= options.targetP99Ms,
      },
    ],
  };
}
