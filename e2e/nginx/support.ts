import type { Page } from '@playwright/test';
import type { Backend } from './global-setup.ts';

/** The processes behind nginx, from global-setup.ts. */
export const backends = (): Backend[] => JSON.parse(process.env.E2E_BACKENDS ?? '[]');

export interface OpenedSocket {
  /** e.g. /inkwell/chat/ann */
  path: string;
  /** The process nginx chose (127.0.0.1:port), from its X-Inkwell-Upstream on the 101. */
  upstream: string;
  at: number;
}

/**
 * Every WebSocket the page opens from now on, with the process nginx put it on: Chromium's
 * DevTools protocol shows the 101's headers, which the page itself cannot read.
 */
export async function watchSockets(page: Page): Promise<OpenedSocket[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map<string, string>();
  const opened: OpenedSocket[] = [];
  cdp.on('Network.webSocketCreated', (event) => urls.set(event.requestId, event.url));
  cdp.on('Network.webSocketHandshakeResponseReceived', (event) => {
    const url = urls.get(event.requestId);
    if (!url) return;
    const header = Object.entries(event.response.headers).find(
      ([name]) => name.toLowerCase() === 'x-inkwell-upstream',
    );
    opened.push({
      path: new URL(url).pathname,
      upstream: String(header?.[1] ?? '')
        .split(',')
        .at(-1)!
        .trim(),
      at: Date.now(),
    });
  });
  return opened;
}

/** The next socket to `pathPart` the page opens after the first `after` of them (polls). */
export async function nextSocket(
  opened: OpenedSocket[],
  pathPart: string,
  after = 0,
  timeoutMs = 10_000,
): Promise<OpenedSocket> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = opened.slice(after).find((s) => s.path.includes(pathPart));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no socket to ${pathPart} opened`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
