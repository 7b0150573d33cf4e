import type { ErrorCode } from '@inkwell/contract';
import { AppError } from '../../lib/errors.ts';
import type { ReadName } from './read-services.ts';

/** What the server posts to a read worker: one read to answer, or the order to close. */
export type ReadRequest = { id: number; name: ReadName; args: unknown[] } | { close: true };

/** What a read worker posts back: the read's answer, or the error it threw. */
export type ReadReply = { id: number; value: unknown } | { id: number; error: SentError };

/** An error as it crosses the thread: an AppError keeps its code and headers (its HTTP answer). */
export interface SentError {
  message: string;
  code?: ErrorCode;
  headers?: Record<string, string>;
}

export function sendableError(error: unknown): SentError {
  if (error instanceof AppError)
    return { message: error.message, code: error.code, headers: error.headers };
  return { message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

/** The error the read threw in the worker, as the server's error handler would have met it. */
export function receivedError(sent: SentError): Error {
  return sent.code ? new AppError(sent.code, sent.message, sent.headers) : new Error(sent.message);
}
