import { FREE_TEXT_QUERY_FIELDS } from '@inkwell/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import fp from 'fastify-plugin';
import { assertStorable } from '../lib/storable-text.ts';

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

export const textGuard = fp(textGuardPlugin, { name: 'inkwell-text-guard' });
