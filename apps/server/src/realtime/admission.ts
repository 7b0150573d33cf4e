import { WS_CLOSE } from '@inkwell/contract';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppContext } from '../context.ts';
import { sessionForToken, type LiveSession } from '../modules/accounts/accounts.service.ts';
import type { SessionSockets } from './session-sockets.ts';
import type { SocketQuota } from './socket-quota.ts';

export interface Refusal {
  refusal: { code: number; reason: string };
}

export const refuse = (code: number, reason: string): Refusal => ({ refusal: { code, reason } });

const isRefusal = (value: unknown): value is Refusal =>
  typeof value === 'object' && value !== null && 'refusal' in value;

/**
 * The session of a socket request, from `?token=` only. The session cookie is not accepted
 * here: browsers send it on cross-site WebSocket upgrades too, so honouring it would let any
 * page open a socket in a signed-in visitor's name.
 */
export async function socketSession(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<LiveSession | Refusal> {
  const { token } = request.query as { token?: unknown };
  if (typeof token !== 'string' || token === '')
    return refuse(WS_CLOSE.unauthorized, 'A token is required');
  const session = await sessionForToken(ctx, token);
  return session ?? refuse(WS_CLOSE.unauthorized, 'The token is invalid or expired');
}

/**
 * Decides on a socket before the upgrade (in preHandler, where it may wait on the database) and
 * hands the decision to the socket handler, which must attach its listeners synchronously. A
 * refused socket is accepted and closed at once with the refusal's 44xx code and reason: unlike
 * an HTTP status on a refused upgrade, a close code reaches browser clients. An admitted socket
 * is tracked by its session, so that it closes when the session ends or expires, and counted
 * against its user's and address's quota (4429 beyond it).
 */
export function socketAdmission<T extends { session: LiveSession }>(
  { sessions, quota }: { sessions: SessionSockets; quota: SocketQuota },
  admit: (request: FastifyRequest) => Promise<T | Refusal>,
) {
  const decisions = new WeakMap<FastifyRequest, T | Refusal>();
  return {
    preHandler: async (request: FastifyRequest) => {
      decisions.set(request, await admit(request));
    },
    /** The admitted value, or undefined once the socket has been closed with the refusal. */
    take(socket: WebSocket, request: FastifyRequest): T | undefined {
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
      if (!quota.acquire(viewer.id, request.ip)) {
        socket.close(WS_CLOSE.tooMany, 'Too many open connections');
        return undefined;
      }
      socket.once('close', () => quota.release(viewer.id, request.ip));
      // The session may have ended while the upgrade completed.
      return sessions.track({ sessionId: viewer.sessionId, expiresAt }, socket)
        ? decision
        : undefined;
    },
  };
}
