import { FREE_TEXT_QUERY_FIELDS } from '@inkwell/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/errors.ts';
import { isStorableText } from '../lib/storable-text.ts';

/** The first string (value or key) in `value` that is not storable text; iterative, so any depth is fine. */
function findUnstorable(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (!isStorableText(next)) return next;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object') {
      for (const [key, inner] of Object.entries(next)) {
        if (!isStorableText(key)) return key;
        pending.push(inner);
      }
    }
  }
  return undefined;
}

/** The query string without the fields its schema takes as free text (search's `q`). */
function guardedQuery(request: FastifyRequest): unknown {
  const free = FREE_TEXT_QUERY_FIELDS.get(request.routeOptions.schema?.querystring as z.ZodType);
  if (!free || typeof request.query !== 'object' || request.query === null) return request.query;
  return Object.fromEntries(Object.entries(request.query).filter(([name]) => !free.includes(name)));
}

/**
 * Checks the path parameters, the query string and the JSON or form body of every request that
 * reaches a route, but for query fields the contract lists as free text (FREE_TEXT_QUERY_FIELDS:
 * search never refuses text, issue 23 §5; its schema normalizes them instead). A request no route
 * matched stores nothing: it gets the web app's page (whose own calls are checked) or a 404, never
 * a 400 for the text in its address (a shared link such as /books/search?q=a%00 opens the page).
 */
async function textGuardPlugin(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    if (request.is404) return;
    assertStorable(request.params, guardedQuery(request), request.body);
  });
}

/**
 * 400 when any string in `parts` is not storable text. The plugin checks what Fastify parsed;
 * a route that reads its body itself (a multipart upload's fields and file name) calls this.
 */
export function assertStorable(...parts: unknown[]): void {
  if (parts.some((part) => findUnstorable(part) !== undefined))
    throw badRequest('Text must be valid Unicode without NUL (U+0000) characters');
}

export const textGuard = fp(textGuardPlugin, { name: 'inkwell-text-guard' });
