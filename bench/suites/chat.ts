import type WebSocket from 'ws';
import { tokenFor, type DatasetInfo } from '../lib/dataset.ts';
import { percentile } from '../lib/load.ts';
import type { Row } from '../lib/report.ts';
import { cpuSecondsOf, type RunningProcess } from '../lib/server.ts';
import { openSockets } from '../lib/sockets.ts';

// Under the contract's per-user rate (5 messages/s sustained), so nothing is refused for speed.
const PER_SENDER_RATE = 4;
const SETTLE_MS = 1_000;
const DRAIN_TIMEOUT_MS = 20_000;
const round2 = (n: number) => Math.round(n * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ChatStep {
  offered: number;
  sent: number;
  /** Messages every member received, per second from the first send to the last full delivery. */
  deliveredPerSecond: number;
  p50: number;
  p99: number;
  incomplete: number;
  refused: number;
  /** Share of one CPU the server used during the step: near 1, the server was the limit. */
  serverCpu: number;
}

/** Waits until no frame has arrived for SETTLE_MS (join notes and history), at most 30 s. */
async function settle(lastFrameAt: () => number) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && performance.now() - lastFrameAt() < SETTLE_MS) await sleep(100);
  while (Date.now() < deadline && performance.now() - lastFrameAt() < SETTLE_MS) await sleep(100);
}

/**
 * `members` followers join the star's chat room; then, for each offered rate, enough of them send
 * lines (each within the per-user rate) for `seconds`. A line counts once every member, the sender
 * included, has received it; its latency is from sending to that last receipt.
 */
export async function measureChat(options: {
  server: RunningProcess;
  info: DatasetInfo;
  members: number;
  rates: number[];
  seconds: number;
  label: { engine: string; size: string };
  log: (line: string) => void;
}): Promise<{ rows: Row[]; steps: ChatStep[] }> {
  const { server, info, label, log } = options;
  const members = Math.min(options.members, info.followers);
  const urls = Array.from(
    { length: members },
    (_, i) =>
      `${server.url.replace('http', 'ws')}/chat/${info.star.username}?token=${tokenFor(info.tokenSeed, info.followersFrom + i)}`,
  );
  const opened = await openSockets(urls, 100);
  let lastFrameAt = performance.now();
  let refused = 0;
  const refusals = new Set<string>();
  // Per line id: when it was sent and how many members have it.
  const sentAt = new Map<string, number>();
  const received = new Map<string, number>();
  const completed: number[] = [];
  let completedAt = 0;
  const onFrame = (data: WebSocket.RawData) => {
    lastFrameAt = performance.now();
    const text = data.toString();
    if (text.includes('"type":"error"')) {
      refused++;
      refusals.add(text);
      return;
    }
    const id = /bench-line-(\d+-\d+-\d+)/.exec(text)?.[1];
    if (!id) return;
    const n = (received.get(id) ?? 0) + 1;
    received.set(id, n);
    if (n === members) {
      completedAt = performance.now();
      completed.push(completedAt - sentAt.get(id)!);
    }
  };
  for (const socket of opened.sockets) socket.on('message', onFrame);
  await settle(() => lastFrameAt);
  log(`  ${members} members in the room`);

  const steps: ChatStep[] = [];
  let dropped: number;
  try {
    for (const [stepIndex, rate] of options.rates.entries()) {
      sentAt.clear();
      received.clear();
      completed.length = 0;
      const refusedBefore = refused;
      const senders = Math.min(members, Math.ceil(rate / PER_SENDER_RATE));
      const interval = 1000 / (rate / senders);
      const perSender = Math.max(1, Math.floor(options.seconds * (rate / senders)));
      const started = performance.now();
      const cpuBefore = cpuSecondsOf(server.pid);
      await Promise.all(
        Array.from({ length: senders }, async (_, s) => {
          // Spread the senders over the first interval so lines do not arrive in bursts.
          await sleep((s / senders) * interval);
          for (let k = 0; k < perSender; k++) {
            const due = started + (s / senders) * interval + k * interval;
            const wait = due - performance.now();
            if (wait > 0) await sleep(wait);
            const id = `${stepIndex}-${s}-${k}`;
            sentAt.set(id, performance.now());
            opened.sockets[s]!.send(`<p>bench-line-${id} ${'lorem ipsum '.repeat(4)}</p>`);
          }
        }),
      );
      const deadline = performance.now() + DRAIN_TIMEOUT_MS;
      while (completed.length < sentAt.size && performance.now() < deadline) await sleep(50);
      const sorted = Float64Array.from(completed).sort();
      const elapsed = ((completed.length ? completedAt : performance.now()) - started) / 1000;
      const serverCpu =
        Math.round(
          ((cpuSecondsOf(server.pid) - cpuBefore) / ((performance.now() - started) / 1000)) * 100,
        ) / 100;
      const step: ChatStep = {
        offered: rate,
        sent: sentAt.size,
        deliveredPerSecond: Math.round(completed.length / elapsed),
        p50: round2(percentile(sorted, 50)),
        p99: round2(percentile(sorted, 99)),
        incomplete: sentAt.size - completed.length,
        refused: refused - refusedBefore,
        serverCpu,
      };
      steps.push(step);
      log(
        `  offered ${rate} lines/s: ${step.deliveredPerSecond} lines/s to all ${members}, p50 ${step.p50} ms, p99 ${step.p99} ms, incomplete ${step.incomplete}, refused ${step.refused}, server CPU ${step.serverCpu}`,
      );
      await settle(() => lastFrameAt);
    }
    dropped = opened.closed();
  } finally {
    await opened.closeAll();
  }
  // The figure reported: the most lines per second the room carried to everyone within a second.
  const good = steps.filter((s) => s.incomplete === 0 && s.refused === 0 && s.p99 <= 1000);
  const best = good.length
    ? good.reduce((a, b) => (b.deliveredPerSecond > a.deliveredPerSecond ? b : a))
    : steps[0]!;
  const errors = steps.reduce((sum, s) => sum + s.incomplete + s.refused, 0) + dropped;
  if (refusals.size) log(`  refusals heard: ${[...refusals].slice(0, 3).join(' ')}`);
  return {
    steps,
    rows: [
      {
        suite: 'chat',
        name: `chat lines/s, room of ${members} (offered ${best.offered}/s)`,
        ...label,
        rps: best.deliveredPerSecond,
        p50: best.p50,
        p99: best.p99,
        value: best.deliveredPerSecond * members,
        unit: 'frames/s',
        errors,
      },
    ],
  };
}
