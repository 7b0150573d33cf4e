/** Steps of the live-notification scenarios, over inject (`as(app, user)`) or over real HTTP (`overHttp`). */

interface Answer {
  statusCode: number;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies, typed like light-my-request's json()
  json(): any;
}

export interface Caller {
  get(url: string): Promise<Answer>;
  post(url: string, payload?: unknown): Promise<Answer>;
  put(url: string, payload?: unknown): Promise<Answer>;
  delete(url: string, payload?: unknown): Promise<Answer>;
}

/** What a caller does around each request: wait for something first, look at the answer's headers. */
export interface CallHooks {
  before?: () => Promise<void>;
  check?: (headers: Headers) => void;
}

/** Like `as(app, user)`, against a server process listening at `base` (http://host:port). */
export function overHttp(
  base: string,
  user?: { token: string } | null,
  hooks: CallHooks = {},
): Caller {
  const call = async (method: string, url: string, payload?: unknown): Promise<Answer> => {
    await hooks.before?.();
    const res = await fetch(base + url, {
      method,
      headers: {
        ...(user && { authorization: `Bearer ${user.token}` }),
        ...(payload !== undefined && { 'content-type': 'application/json' }),
      },
      ...(payload !== undefined && { body: JSON.stringify(payload) }),
    });
    hooks.check?.(res.headers);
    const body = await res.text();
    return { statusCode: res.status, body, json: () => JSON.parse(body) };
  };
  return {
    get: (url) => call('GET', url),
    post: (url, payload) => call('POST', url, payload),
    put: (url, payload) => call('PUT', url, payload),
    delete: (url, payload) => call('DELETE', url, payload),
  };
}

function expectStatus(res: Answer, status: number, what: string) {
  if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function createPublishedBook(caller: Caller, title: string): Promise<{ id: number }> {
  const book = expectStatus(await caller.post('/api/books', { title }), 201, 'create book');
  expectStatus(
    await caller.put(`/api/books/${book.id}`, { title, summary: '', is_published: true }),
    200,
    'publish book',
  );
  return book;
}

export async function addChapter(
  caller: Caller,
  bookId: number,
  title: string,
): Promise<{ id: number }> {
  return expectStatus(
    await caller.post(`/api/books/${bookId}/chapters`, { title }),
    201,
    'add chapter',
  );
}

export async function updateChapter(
  caller: Caller,
  bookId: number,
  chapterId: number,
  changes: Record<string, unknown>,
) {
  return expectStatus(
    await caller.put(`/api/books/${bookId}/chapters/${chapterId}`, changes),
    200,
    'update chapter',
  );
}

export async function follow(caller: Caller, authorId: number) {
  return expectStatus(await caller.post('/api/follows', { author_id: authorId }), 201, 'follow');
}

/** Deletes the Redis keys a test run wrote under its own prefix (chat histories). */
export async function dropRedisKeys(prefix: string, url = 'redis://127.0.0.1:6379'): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
