import { ERROR_STATUS, type ErrorCode } from '@inkwell/contract';

/**
 * The one error type services throw. The error handler maps `code` to a status and a JSON body;
 * `field`, when set, is the request field the refusal is about (the body's `field`).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;
  readonly field: string | undefined;

  constructor(
    code: ErrorCode,
    detail: string,
    headers: Record<string, string> = {},
    field?: string,
  ) {
    super(detail);
    this.code = code;
    this.headers = headers;
    this.field = field;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = 'Not found') => new AppError('not_found', what);
/** `field`: the request field at fault, when it is one (ErrorBody's `field`); so for the others. */
export const forbidden = (why = 'You may not change this', field?: string) =>
  new AppError('forbidden', why, {}, field);
export const conflict = (why: string, field?: string) => new AppError('conflict', why, {}, field);
export const badRequest = (why: string, field?: string) =>
  new AppError('validation', why, {}, field);
export const unauthorized = (why = 'Not authenticated') => new AppError('unauthorized', why);

/**
 * The house 429: "Too many {what}. Try again in N s." with Retry-After (whole seconds, at least
 * one), for every limit (requests, comments, failed sign-ins).
 */
export function rateLimited(what: string, retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError('rate_limited', `Too many ${what}. Try again in ${seconds} s.`, {
    'retry-after': String(seconds),
  });
}
