import { WS_CLOSE } from '@inkwell/contract';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppContext } from '../../context.ts';
import { clientAddress } from '../../lib/client-address.ts';
import {
  sessionForSocketTicket,
  sessionForToken,
  type LiveSession,
} from '../accounts/accounts.service.ts';
import type { SessionSockets } from '../../realtime/session-sockets.ts';
import type { SocketQuota } from '../../realtime/socket-quota.ts';

export interface Refusal {
  refusal: { code: number; reason: string };
}

export const refuse = (code: number, reason: string): Refusal => ({ refusal: { code, reason } });

const isRefusal = (value: unknown): value is Refusal =>
  typeof value === 'object' && value !== null && 'refusal' in value;

const TOO_MANY = 'Too many open connections';

/**
 * The session of a socket request: from `?ticket=`, a single-use ticket (what the web app
 * sends), or else from `?token=`, the session token itself (what the spec's clients send;
 * docs/decisions/0023). The session cookie is not accepted here: browsers send it on cross-site
 * WebSocket upgrades too, so honouring it would let any page open a socket in a signed-in
 * visitor's name.
 */
export async function socketSession(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<LiveSession | Refusal> {
  const { ticket, token } = request.query as { ticket?: unknown; token?: unknown };
  if (typeof ticket === 'string' && ticket !== '') {
    const session = await sessionForSocketTicket(ctx, ticket);
    return session ?? refuse(WS_CLOSE.unauthorized, 'The ticket is invalid, used or expired');
  }
  if (typeof token !== 'string' || token === '')
    return refuse(WS_CLOSE.unauthorized, 'A ticket or a token is required');
  const session = await sessionForToken(ctx, token);
  return session ?? refuse(WS_CLOSE.unauthorized, 'The token is invalid or expired');
}

/** An admitted socket: its session, and what the endpoint's own checks found (a chat room). */
export type Admitted<T> = { session: LiveSession } & T;

/** Whether the request asks to become a WebSocket (a plain GET of a socket's URL does not). */
const isUpgrade = (request: FastifyRequest) =>
  String(request.headers.upgrade ?? '').toLowerCase() === 'websocket';

/**
 * Decides on a socket before the upgrade (in preHandler, where it may wait on the database) and
 * hands the decision to the socket handler, which must attach its listeners synchronously. A
 * refused socket is accepted and closed at once with the refusal's 44xx code and reason: unlike
 * an HTTP status on a refused upgrade, a close code reaches browser clients. An admitted socket
 * is tracked by its session, so that it closes when the session ends or expires, and counted
 * against its user's and address's quota (4429 beyond it).
 *
 * The order is cheapest first: an address or a user already at its cap is refused before the
 * session lookup and before the endpoint's own checks (`admit`: a chat join, which spends one
 * of the user's joins, and the room lookup) do any work for a socket that cannot open.
 */
export function socketAdmission<T extends object>(
  { ctx, sessions, quota }: { ctx: AppContext; sessions: SessionSockets; quota: SocketQuota },
  admit: (request: FastifyRequest, session: LiveSession) => Promise<T | Refusal>,
) {
  const decide = async (request: FastifyRequest): Promise<Admitted<T> | Refusal> => {
    const address = clientAddress(request.ip);
    if (await quota.addressFull(address)) return refuse(WS_CLOSE.tooMany, TOO_MANY);
    const session = await socketSession(ctx, request);
    if (isRefusal(session)) return session;
    if (await quota.userFull(session.viewer.id)) return refuse(WS_CLOSE.tooMany, TOO_MANY);
    const admitted = await admit(request, session);
    if (isRefusal(admitted)) return admitted;
    // Taken for real only now, under both caps at once: other sockets may have opened since the
    // looks above, here or on another process.
    const release = await quota.acquire(session.viewer.id, address);
    if (!release) return refuse(WS_CLOSE.tooMany, TOO_MANY);
    // Given back when the connection ends, whether or not the upgrade completes: a client gone
    // before the handler runs must not keep its place.
    const connection = request.raw.socket;
    if (connection.destroyed) release();
    else connection.once('close', release);
    return { ...admitted, session };
  };
  const decisions = new WeakMap<FastifyRequest, Admitted<T> | Refusal>();
  return {
    preHandler: async (request: FastifyRequest) => {
      // A plain GET of a socket's URL opens nothing (it is answered 404): it must not take a
      // place, nor spend a chat join.
      if (!isUpgrade(request)) return;
      decisions.set(request, await decide(request));
    },
    /** The admitted value, or undefined once the socket has been closed with the refusal. */
    take(socket: WebSocket, request: FastifyRequest): Admitted<T> | undefined {
      const decision = decisions.get(request);
      decisions.delete(request);
      if (decision === undefined || isRefusal(decision)) {
        const { code, reason } = decision?.refusal ?? {
          code: WS_CLOSE.unauthorized,
          reason: 'Not admitted',
        };
        socket.close(code, reason);
        return undefined;
      }
      const { viewer, expiresAt } = decision.session;
      // The session may have ended while the upgrade completed.
      return sessions.track({ sessionId: viewer.sessionId, expiresAt }, socket)
        ? decision
        : undefined;
    },
  };
}
