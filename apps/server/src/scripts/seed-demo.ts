import sharp from 'sharp';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { DEMO_AUTHORS, DEMO_BOOKS, DEMO_PASSWORD } from './demo-content.ts';

/**
 * `npm run seed:demo`: fills the configured database with a few authors, published books,
 * chapters, genres, covers and follows, through the real API so every rule applies.
 * Running it again does nothing if the demo authors already exist.
 */
const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
const { app, ctx } = await buildApp(config, { logger: false });

async function call(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  token: string | null,
  payload?: unknown,
) {
  const res = await app.inject({
    method,
    url: `${config.BASE_PATH}${url}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload !== undefined && { payload: payload as object }),
  });
  if (res.statusCode >= 300)
    throw new Error(`${method} ${url} failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A cover drawn from shapes only (no fonts needed), distinct per book. */
function coverPng(palette: [string, string], seed: number): Promise<Buffer> {
  const [dark, light] = palette;
  const circles = Array.from({ length: 6 }, (_, i) => {
    const x = (seed * 97 + i * 131) % 600;
    const y = (seed * 53 + i * 211) % 900;
    return `<circle cx="${x}" cy="${y}" r="${60 + ((seed + i) % 5) * 30}" fill="${light}" fill-opacity="${0.12 + i * 0.05}"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="#111"/></linearGradient></defs>
    <rect width="600" height="900" fill="url(#g)"/>${circles}
    <rect x="60" y="620" width="480" height="6" fill="${light}"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function uploadCover(bookId: number, token: string, png: Buffer) {
  const boundary = `----inkwellseed${bookId}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="cover.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await app.inject({
    method: 'POST',
    url: `${config.BASE_PATH}/api/books/${bookId}/cover`,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
  if (res.statusCode !== 200) throw new Error(`cover upload failed: ${res.body}`);
}

try {
  const existing = await app.inject({
    method: 'GET',
    url: `${config.BASE_PATH}/api/authors/${DEMO_AUTHORS[0]!.username}`,
  });
  if (existing.statusCode === 200) {
    console.log('Demo data is already there; nothing to do.');
  } else {
    const tokens = new Map<string, { token: string; id: number }>();
    for (const author of DEMO_AUTHORS) {
      const created = await call('POST', '/api/authors', null, {
        username: author.username,
        password: DEMO_PASSWORD,
      });
      const { palette: _palette, username: _username, ...profile } = author;
      await call('PUT', `/api/authors/${created.account.id}`, created.access_token, profile);
      tokens.set(author.username, { token: created.access_token, id: created.account.id });
    }
    for (const [index, book] of DEMO_BOOKS.entries()) {
      const { token } = tokens.get(book.author)!;
      const created = await call('POST', '/api/books', token, { title: book.title });
      await call('PUT', `/api/books/${created.id}`, token, {
        title: book.title,
        summary: book.summary,
        is_published: true,
      });
      for (const genreId of book.genres)
        await call('POST', `/api/books/${created.id}/genres`, token, { genre_id: genreId });
      await uploadCover(created.id, token, await coverPng(book.palette, index + 1));
      for (const [order, chapter] of book.chapters.entries()) {
        const content = chapter.paragraphs.map((p) => `<p>${p}</p>`).join('');
        const made = await call('POST', `/api/books/${created.id}/chapters`, token, {
          book_id: created.id,
          title: chapter.title,
          content,
          chapter_order: order + 1,
        });
        await call('PUT', `/api/books/${created.id}/chapters/${made.id}`, token, {
          is_published: true,
        });
      }
    }
    // A little social life, so the home page picks have something to choose from.
    const ids = [...tokens.values()];
    for (const follower of ids) {
      for (const author of ids) {
        if (follower.id !== author.id)
          await call('POST', '/api/follows', follower.token, { author_id: author.id });
      }
    }
    console.log(
      `Seeded ${DEMO_AUTHORS.length} authors and ${DEMO_BOOKS.length} books. Sign in as any of ${DEMO_AUTHORS.map((a) => a.username).join(', ')} with the password "${DEMO_PASSWORD}".`,
    );
  }
} finally {
  // The chapters' text is searchable once indexed: do it now rather than at the next start.
  await ctx.searchIndexer.flush();
  await app.close();
}
