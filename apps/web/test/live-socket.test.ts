import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setBearerToken } from '../src/lib/api.ts';
import { openLiveSocket } from '../src/lib/socket.ts';
import { FakeBrowserSocket as FakeSocket } from './fake-browser-socket.ts';

const SESSION_TOKEN = 'the-30-day-session-token';
let tickets = 0;
let ticketAnswer: () => Response;
const fetchMock = vi.fn(async () => ticketAnswer());

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

beforeEach(() => {
  FakeSocket.opened = [];
  tickets = 0;
  ticketAnswer = () => json(201, { ticket: `ticket-${++tickets}`, expires_in: 60 });
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('WebSocket', FakeSocket);
  setBearerToken(SESSION_TOKEN);
});
afterEach(() => {
  vi.unstubAllGlobals();
  setBearerToken(null);
});

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('live sockets', () => {
  it('connect with a fresh single-use ticket, never with the session token', async () => {
    const socket = openLiveSocket('/ws', { onMessage() {} });
    await flush();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [address, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(address).toBe('/api/socket-tickets');
    expect(init.method).toBe('POST');
    expect(FakeSocket.opened.map((s) => s.url)).toEqual([
      `ws://${window.location.host}/ws?ticket=ticket-1`,
    ]);
    expect(FakeSocket.opened[0]!.url).not.toContain(SESSION_TOKEN);
    socket.close();
  });

  it('ask for a new ticket on every reconnect', async () => {
    vi.useFakeTimers();
    const socket = openLiveSocket('/chat/ann', { onMessage() {} });
    await vi.advanceTimersByTimeAsync(0);
    FakeSocket.opened[0]!.onclose?.({ code: 1006 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.opened.map((s) => new URL(s.url).search)).toEqual([
      '?ticket=ticket-1',
      '?ticket=ticket-2',
    ]);
    socket.close();
  });

  it('stop when the session is gone (no ticket: 401), and retry when the server is away', async () => {
    vi.useFakeTimers();
    const statuses: string[] = [];
    ticketAnswer = () => json(401, { detail: 'Not authenticated', code: 'unauthorized' });
    openLiveSocket('/ws', { onMessage() {}, onStatus: (s) => statuses.push(s) });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(FakeSocket.opened).toEqual([]);
    expect(statuses).toEqual(['connecting', 'closed']);

    fetchMock.mockClear();
    ticketAnswer = () => json(503, { detail: 'busy', code: 'unavailable' });
    const socket = openLiveSocket('/ws', { onMessage() {} });
    await vi.advanceTimersByTimeAsync(3_500);
    expect(fetchMock.mock.calls.length).toBeGreaterThanOrEqual(2);
    socket.close();
  });

  it('take a refused ticket (4401: used up by a backend that died mid-upgrade) for a reason to reconnect', async () => {
    vi.useFakeTimers();
    const statuses: string[] = [];
    const refused = vi.fn();
    const socket = openLiveSocket('/chat/ann', {
      onMessage() {},
      onStatus: (status) => statuses.push(status),
      onRefused: refused,
    });
    await vi.advanceTimersByTimeAsync(0);
    FakeSocket.opened[0]!.onclose?.({ code: 4401 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.opened.map((s) => new URL(s.url).search)).toEqual([
      '?ticket=ticket-1',
      '?ticket=ticket-2',
    ]);
    expect(refused).not.toHaveBeenCalled();
    expect(statuses).not.toContain('closed');
    // The session did end: the next ticket is refused (401), and that is final.
    ticketAnswer = () => json(401, { detail: 'Not authenticated', code: 'unauthorized' });
    FakeSocket.opened[1]!.onclose?.({ code: 4401 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(FakeSocket.opened).toHaveLength(2);
    expect(statuses.at(-1)).toBe('closed');
    socket.close();
  });

  it('say nothing once their owner closed them (a late close or frame would reach what it opened since)', async () => {
    vi.useFakeTimers();
    const heard: string[] = [];
    const socket = openLiveSocket('/chat/ann', {
      onMessage: (data) => heard.push(JSON.stringify(data)),
      onStatus: (status) => heard.push(status),
    });
    await vi.advanceTimersByTimeAsync(0);
    FakeSocket.opened[0]!.onopen?.();
    heard.length = 0;
    socket.close();
    FakeSocket.opened[0]!.onmessage?.({ data: '{"user":"ann","message":"late"}' });
    FakeSocket.opened[0]!.onclose?.({ code: 1000 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(heard).toEqual([]);
    expect(FakeSocket.opened).toHaveLength(1);
  });

  it('say "reconnecting", never "closed", while a lost connection is being replaced', async () => {
    // A process behind the load balancer died (1006): the socket lands on another within seconds.
    vi.useFakeTimers();
    const statuses: string[] = [];
    const socket = openLiveSocket('/chat/ann', {
      onMessage() {},
      onStatus: (s) => statuses.push(s),
    });
    await vi.advanceTimersByTimeAsync(0);
    FakeSocket.opened[0]!.onopen?.();
    FakeSocket.opened[0]!.onclose?.({ code: 1006 });
    // The first ticket after the loss fails too (the dying process answered it).
    ticketAnswer = () => json(502, { detail: 'Bad gateway', code: 'unavailable' });
    await vi.advanceTimersByTimeAsync(1000);
    ticketAnswer = () => json(201, { ticket: `ticket-${++tickets}`, expires_in: 60 });
    await vi.advanceTimersByTimeAsync(2000);
    FakeSocket.opened.at(-1)!.onopen?.();
    expect(statuses).toEqual([
      'connecting',
      'open',
      'reconnecting',
      'reconnecting',
      'reconnecting',
      'reconnecting',
      'open',
    ]);
    socket.close();
  });

  it('back off further each time the server opens and closes at once (over its cap), and start again once a connection held', async () => {
    vi.useFakeTimers();
    const socket = openLiveSocket('/ws', { onMessage() {} });
    await vi.advanceTimersByTimeAsync(0);
    /** Plays the server: opens the newest socket, closes it after `heldMs`; answers the wait for the next. */
    const refuseAfter = async (heldMs: number) => {
      const opened = FakeSocket.opened.length;
      FakeSocket.opened.at(-1)!.onopen?.();
      await vi.advanceTimersByTimeAsync(heldMs);
      FakeSocket.opened.at(-1)!.onclose?.({ code: 4429 });
      let waited = 0;
      while (FakeSocket.opened.length === opened) {
        await vi.advanceTimersByTimeAsync(250);
        waited += 250;
      }
      return waited;
    };
    expect([await refuseAfter(0), await refuseAfter(0), await refuseAfter(0)]).toEqual([
      1000, 2000, 4000,
    ]);
    // A connection that stayed open a while was a good one: the next loss waits a second again.
    expect(await refuseAfter(60_000)).toBe(1000);
    socket.close();
  });
});
