import type { ErrorCode } from '@inkwell/contract';
import { AppError } from '../../lib/errors.ts';
import type { ReadName } from './read-services.ts';

/** What the server posts to a read worker: one read to answer, or the order to close. */
export type ReadRequest = { id: number; name: ReadName; args: unknown[] } | { close: true };

/**
 * What a read worker posts back: that it is ready (once, when it has loaded and opened its
 * connection), a read's answer, or the error a read threw.
 */
export type ReadReply =
  { ready: true } | { id: number; value: unknown } | { id: number; error: SentError };

/**
 * An error as it crosses the thread, with what the error handler (plugins/errors.ts) answers by:
 * an AppError's code, headers and field; any other error's own `code` (a driver's: SQLITE_BUSY, a
 * PostgreSQL statement timeout, a lost connection make a 503 "retry") and `statusCode`.
 */
export type SentError =
  | {
      app: true;
      code: ErrorCode;
      message: string;
      headers: Record<string, string>;
      field: string | undefined;
    }
  | { app: false; message: string; stack?: string; code?: string; statusCode?: number };

export function sendableError(error: unknown): SentError {
  if (error instanceof AppError)
    return {
      app: true,
      code: error.code,
      message: error.message,
      headers: error.headers,
      field: error.field,
    };
  if (!(error instanceof Error)) return { app: false, message: String(error) };
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  return {
    app: false,
    message: error.message,
    stack: error.stack,
    ...(typeof code === 'string' && { code }),
    ...(typeof statusCode === 'number' && { statusCode }),
  };
}

/** The error the read threw in the worker, as the server's error handler would have met it. */
export function receivedError(sent: SentError): Error {
  if (sent.app) return new AppError(sent.code, sent.message, sent.headers, sent.field);
  const error = new Error(sent.message) as Error & { code?: string; statusCode?: number };
  if (sent.stack) error.stack = sent.stack;
  if (sent.code) error.code = sent.code;
  if (sent.statusCode) error.statusCode = sent.statusCode;
  return error;
}
