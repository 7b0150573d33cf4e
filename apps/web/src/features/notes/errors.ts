import { isApiError } from '../../lib/api.ts';

/** The server's explanation of a failed call, or a fallback sentence. */
export const getErrorDetail = (error: unknown, fallback: string) =>
  isApiError(error) && error.status !== 0 && error.status < 500 ? error.detail : fallback;
