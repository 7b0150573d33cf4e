import { errorCodes, type FastifyReply, type FastifyRequest } from 'fastify';
import { assertStorable } from './storable-text.ts';
import { badRequest } from './errors.ts';

/**
 * A "form body" (SPEC section 7, `POST /token`) comes in either encoding a browser makes: from
 * URLSearchParams as application/x-www-form-urlencoded (@fastify/formbody), or from a FormData as
 * multipart/form-data, which is what the spec's own client sends and what its original backend
 * (FastAPI) took. This preValidation hook turns a multipart form into the same plain object the
 * urlencoded parser gives, so the route's schema checks both alike: same limits, same errors.
 *
 * - The body limit is the route's (as for urlencoded): a larger declared length answers 413.
 * - A repeated field becomes an array (as urlencoded does), which the schema then refuses.
 * - A file part is refused (400): a form body holds text fields only.
 * - Text is checked as the text guard checks every other body (it ran before this hook, while
 *   the multipart body was still unread).
 */
export async function multipartFormFields(request: FastifyRequest, _reply: FastifyReply) {
  if (!request.isMultipart()) return;
  const limit = request.routeOptions.bodyLimit;
  if (limit !== undefined && Number(request.headers['content-length'] ?? 0) > limit) {
    throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  }
  const fields: Record<string, string | string[]> = Object.create(null);
  // fieldSize at the body limit: no field is cut short before the limit above refuses the body.
  for await (const part of request.parts({ limits: { fieldSize: limit, fields: 1000 } })) {
    if (part.type === 'file') {
      part.file.resume();
      throw badRequest('Send form fields only, without files');
    }
    const value = String(part.value);
    const previous = fields[part.fieldname];
    fields[part.fieldname] = previous === undefined ? value : [previous, value].flat();
  }
  assertStorable(fields);
  request.body = { ...fields };
}
