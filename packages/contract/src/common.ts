import { z } from 'zod';

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

export const ErrorBody = z
  .object({
    detail: z.string(),
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Acknowledgement for calls with nothing else to say; always JSON so `res.json()` works in clients. */
export const Ack = z.object({ detail: z.string() }).meta({ id: 'Ack' });
export type Ack = z.infer<typeof Ack>;

/** Ids are positive integers; anything else in a path is "not found", never a 400 or a 500. */
export const Id = z.coerce.number().int().positive().max(2_147_483_647);

export const IdParams = z.object({ id: Id });

export const Pagination = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

export const Href = z.object({ href: z.string() }).meta({ id: 'Href' });
export type Href = z.infer<typeof Href>;

/** Timestamps travel as ISO-8601 strings in UTC. */
export const Timestamp = z.string();

/** Trimmed plain text with a length cap; titles and names read back exactly as typed otherwise. */
export const plainText = (max: number) => z.string().max(max);
