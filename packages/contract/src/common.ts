import { z } from 'zod';
import { ID_MAX, ID_PATTERN } from './ids.ts';

/** Every machine-readable error code the API answers with, and the HTTP status each maps to. */
export const ERROR_STATUS = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Every 4xx and 5xx answer. `field` names the request field (body or query) a refusal is about,
 * when it is that one field's (a value the schema refuses, a wrong `current_password`, a taken
 * `username` or book `title`), so a form can mark it without guessing from the status or the
 * words; absent otherwise, and never replacing `detail`, which still says why.
 */
export const ErrorBody = z
  .object({
    detail: z.string(),
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    field: z.string().optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Acknowledgement for calls with nothing else to say; always JSON so `res.json()` works in clients. */
export const Ack = z.object({ detail: z.string() }).meta({ id: 'Ack' });
export type Ack = z.infer<typeof Ack>;

/** An id written as text, in its one spelling (ids.ts); the pattern also documents it in OpenAPI. */
function idText(message: string) {
  return z.string().regex(ID_PATTERN, message).transform(Number).pipe(z.number().max(ID_MAX));
}

/**
 * An id in a path: only its one spelling (ids.ts), e.g. `16`, never `0x10`, `016`, `+16` or
 * `1e1`. The error handler answers any params failure 404, as for an id that names nothing.
 */
export const PathId = idText('an id is written in decimal digits without a leading zero');

/**
 * An id in a body or query string: a JSON integer, or the same id written as a string ("3"), as the
 * spec's client sends a `<select>`'s value. Other spellings ("0x10", "1e1", true) are refused (400).
 */
export const Id = z.union([z.number().int().min(1).max(ID_MAX), idText('must be an id')], {
  error: `must be an id: an integer from 1 to ${ID_MAX}`,
});

export const IdParams = z.object({ id: PathId });

export const Pagination = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

export const Href = z.object({ href: z.string() }).meta({ id: 'Href' });
export type Href = z.infer<typeof Href>;

/** Timestamps travel as ISO-8601 strings in UTC. */
export const Timestamp = z.string();
