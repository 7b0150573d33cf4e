import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/** Every HTTP call of SPEC section 7, as OpenAPI paths. */
const SPEC_CALLS = [
  ['post', '/token'],
  ['get', '/token'],
  ['delete', '/token'],
  ['post', '/api/authors'],
  ['get', '/api/my/books'],
  ['post', '/api/books'],
  ['get', '/api/books/{id}'],
  ['put', '/api/books/{id}'],
  ['delete', '/api/books/{id}'],
  ['post', '/api/books/{id}/cover'],
  ['get', '/api/books'],
  ['get', '/api/books/search'],
  ['get', '/api/books/genres/{genre}'],
  ['get', '/api/recent/books'],
  ['get', '/api/popular/books'],
  ['get', '/api/genres'],
  ['get', '/api/books/{id}/genres'],
  ['post', '/api/books/{id}/genres'],
  ['delete', '/api/books/{id}/genres'],
  ['get', '/api/authors/books/{bookId}/chapters'],
  ['get', '/api/books/{id}/chapters'],
  ['post', '/api/books/{id}/chapters'],
  ['put', '/api/books/{id}/chapters'],
  ['get', '/api/chapters/{id}'],
  ['put', '/api/books/{bookId}/chapters/{chapterId}'],
  ['delete', '/api/chapters/{id}'],
  ['post', '/api/books/{bookId}/chapters/{chapterId}/history'],
  ['get', '/api/my/history'],
  ['delete', '/api/chapters/{chapterId}/history'],
  ['get', '/api/my/follows'],
  ['get', '/api/authors/{id}/is-following'],
  ['post', '/api/follows'],
  ['delete', '/api/follows'],
  ['get', '/api/authors'],
  ['get', '/api/authors/{id}'],
  ['put', '/api/authors/{id}'],
  ['post', '/api/authors/avatar'],
  ['get', '/api/authors/{id}/chapters'],
  ['get', '/api/authors/{id}/books'],
] as const;

let t: TestApp;
let document: { openapi: string; paths: Record<string, Record<string, unknown>> };
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  document = res.json();
});
afterAll(() => t.close());

/** Path parameter names differ between modules ({id} vs {bookId}); compare shapes only. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1', () => {
    expect(document.openapi).toBe('3.1.0');
  });

  it.each(SPEC_CALLS)('documents %s %s', (method, path) => {
    const entry = Object.entries(document.paths).find(([p]) => shape(p) === shape(path));
    expect(entry, `${path} is missing`).toBeDefined();
    expect(Object.keys(entry![1])).toContain(method);
  });

  it('serves a readable reference page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('BASE_PATH', () => {
  it('serves the token endpoint and the API under the prefix', async () => {
    const prefixed = await createTestApp({ BASE_PATH: '/inkwell' });
    try {
      expect((await prefixed.app.inject({ method: 'GET', url: '/inkwell/token' })).json()).toEqual({
        access_token: null,
      });
      expect(
        (await prefixed.app.inject({ method: 'GET', url: '/inkwell/api/genres' })).statusCode,
      ).toBe(200);
      expect((await prefixed.app.inject({ method: 'GET', url: '/api/genres' })).statusCode).toBe(
        404,
      );
    } finally {
      await prefixed.close();
    }
  });
});

describe('CORS_ORIGINS', () => {
  it('allows credentialed calls from listed origins only', async () => {
    const app = await createTestApp({ CORS_ORIGINS: 'http://client.example:5173' });
    try {
      const preflight = (origin: string) =>
        app.app.inject({
          method: 'OPTIONS',
          url: '/api/books',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type',
          },
        });
      const allowed = await preflight('http://client.example:5173');
      expect(allowed.headers['access-control-allow-origin']).toBe('http://client.example:5173');
      expect(allowed.headers['access-control-allow-credentials']).toBe('true');
      const refused = await preflight('https://evil.example');
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();

      const signup = await app.app.inject({
        method: 'POST',
        url: '/api/authors',
        payload: { username: 'corsuser', password: 'password1' },
      });
      const token = signup.json().access_token;
      const write = (origin: string) =>
        app.app.inject({
          method: 'POST',
          url: '/api/books',
          cookies: { fastapi_token: token },
          headers: { origin },
          payload: { title: `From ${origin}` },
        });
      expect((await write('http://client.example:5173')).statusCode).toBe(201);
      expect((await write('https://evil.example')).statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });

  it('sends no CORS headers by default', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/genres',
      headers: { origin: 'http://client.example:5173' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
