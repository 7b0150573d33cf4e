import type { ErrorBody } from '@inkwell/contract';
import { url } from './paths.ts';

/** A non-ok answer: the HTTP status with the server's {detail, code, field} when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly detail: string;
  /** The request field the server said the refusal is about, when it named one. */
  readonly field: string | undefined;
  /** Seconds from a 429's Retry-After header, when it sent one. */
  readonly retryAfter: number | undefined;

  constructor(
    status: number,
    detail: string,
    code?: string,
    { field, retryAfter }: { field?: string | undefined; retryAfter?: number | undefined } = {},
  ) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.code = code;
    this.field = field;
    this.retryAfter = retryAfter;
  }
}

export const isApiError = (error: unknown, status?: number): error is ApiError =>
  error instanceof ApiError && (status === undefined || error.status === status);

/** What to tell a person of a failed call: the server's words for a 4xx/5xx it explained, else `fallback`. */
export const apiErrorMessage = (error: unknown, fallback: string): string =>
  isApiError(error) && error.detail ? error.detail : fallback;

/** The session token, sent as a bearer header; the cookie rides along too (same origin). */
let bearer: string | null = null;
export const setBearerToken = (token: string | null) => {
  bearer = token;
};

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  json?: unknown;
  form?: Record<string, string>;
  body?: FormData;
  signal?: AbortSignal;
  /**
   * Sent with the cookie alone, not the token this page holds: the server believes a bearer
   * header before the cookie, and after another tab signed in again only the cookie is current.
   */
  cookieOnly?: boolean;
  /** Let the request finish after the page is gone (a small write made as the tab closes). */
  keepalive?: boolean;
}

async function errorFrom(res: Response): Promise<ApiError> {
  let detail = res.statusText || `HTTP ${res.status}`;
  let code: string | undefined;
  let field: string | undefined;
  try {
    // The contract's shape, unchecked: a proxy's or an older server's error may have any.
    const body = (await res.json()) as { [K in keyof ErrorBody]?: unknown };
    if (typeof body.detail === 'string') detail = body.detail;
    if (typeof body.code === 'string') code = body.code;
    if (typeof body.field === 'string') field = body.field;
  } catch {
    // not JSON: keep the status text
  }
  const retry = Number(res.headers.get('retry-after'));
  return new ApiError(res.status, detail, code, {
    field,
    retryAfter: retry > 0 ? Math.ceil(retry) : undefined,
  });
}

/** Calls the API under the base path; answers the ok Response, or throws an ApiError. */
async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (bearer && !options.cookieOnly) headers.authorization = `Bearer ${bearer}`;
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    body = new URLSearchParams(options.form);
  } else if (options.body) {
    body = options.body;
  }
  let res: Response;
  try {
    res = await fetch(url(path), {
      method: options.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      credentials: 'same-origin',
      signal: options.signal,
      keepalive: options.keepalive,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Could not reach the server.', 'network');
  }
  if (!res.ok) throw await errorFrom(res);
  return res;
}

/**
 * The file name a Content-Disposition header gives (RFC 6266): its exact `filename*` (UTF-8,
 * percent-encoded) before its plain `filename`; null when it gives none.
 */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const exact = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (exact) {
    try {
      return decodeURIComponent(exact.trim());
    } catch {
      // not valid percent-encoding: try the plain name
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(disposition)?.[1] ?? null;
}

/** A file the API answers to a GET, whole, with the name the server gives it (or null). */
export interface ApiFile {
  blob: Blob;
  name: string | null;
}

/** GETs a file from the API: answers it, or throws an ApiError (status 0 if it broke off). */
export async function getFile(path: string, signal?: AbortSignal): Promise<ApiFile> {
  const res = await send(path, { signal });
  try {
    return { blob: await res.blob(), name: fileNameOf(res.headers.get('content-disposition')) };
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Could not reach the server.', 'network');
  }
}

const bodyOf = async <T>(res: Response): Promise<T> =>
  res.status === 204 ? (undefined as T) : ((await res.json()) as T);

/** Calls the API under the base path and answers the parsed JSON body, or throws an ApiError. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return bodyOf<T>(await send(path, options));
}

/** A GET's body with the answer's headers, for what the server says beside a JSON array. */
export interface WithHeaders<T> {
  body: T;
  headers: Headers;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => request<T>(path, { signal }),
  getWithHeaders: async <T>(path: string, signal?: AbortSignal): Promise<WithHeaders<T>> => {
    const res = await send(path, { signal });
    return { body: await bodyOf<T>(res), headers: res.headers };
  },
  post: <T>(path: string, json?: unknown) => request<T>(path, { method: 'POST', json: json ?? {} }),
  put: <T>(path: string, json: unknown) => request<T>(path, { method: 'PUT', json }),
  delete: <T>(path: string, json?: unknown) =>
    request<T>(path, { method: 'DELETE', json: json ?? {} }),
  upload: <T>(path: string, file: File) => {
    const body = new FormData();
    body.append('image', file);
    return request<T>(path, { method: 'POST', body });
  },
};
