import { FILTERED_HIDDEN_HEADER } from '@inkwell/contract/constants';
import type { FastifyReply } from 'fastify';

/**
 * Tells the client how many books a reader's saved exclusions took out of a list (issue 21), for
 * its "Filtered: N books hidden" line: the spec's lists are JSON arrays, so the count travels in
 * a header. Only a signed-in reader's answer can carry it, and public reads answer those
 * `private` and never keep them (plugins/read-cache.ts).
 */
export function sendHiddenCount(reply: FastifyReply, hidden: number): void {
  if (hidden > 0) reply.header(FILTERED_HIDDEN_HEADER, String(hidden));
}
