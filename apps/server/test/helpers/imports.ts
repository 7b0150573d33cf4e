import crypto from 'node:crypto';
import type { ImportJob, ImportPlan, ImportPreview } from '@inkwell/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { as } from './app.ts';

/** Uploads to the import API as a client sends them: multipart, the file in `file`. */

/** A multipart body with the file in `file` and any text fields. */
export function importForm(file: Buffer, filename: string, fields: Record<string, string> = {}) {
  const boundary = `----inkwell${crypto.randomUUID()}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    ),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** POSTs a file to an import route (`/api/imports` or its preview) as `who` (null: a visitor). */
export function uploadTo(
  app: FastifyInstance,
  url: '/api/imports' | '/api/imports/preview',
  who: { token: string } | null,
  file: Buffer,
  filename: string,
  fields: Record<string, string> = {},
) {
  const body = importForm(file, filename, fields);
  return app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...(who && { authorization: `Bearer ${who.token}` }) },
  });
}

/** Polls a job until it is done or failed. */
export async function waitForImport(
  app: FastifyInstance,
  who: { token: string },
  jobId: number,
  timeoutMs = 25_000,
): Promise<ImportJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await as(app, who).get(`/api/imports/${jobId}`)).json<ImportJob>();
    if (job.status === 'done' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`import ${jobId} still ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

/** Imports a file (with a plan when given) and waits for the job to end. */
export async function importFile(
  app: FastifyInstance,
  who: { token: string },
  file: Buffer,
  filename: string,
  fields: Record<string, string> = {},
  timeoutMs?: number,
): Promise<ImportJob> {
  const res = await uploadTo(app, '/api/imports', who, file, filename, fields);
  expect(res.statusCode, res.body).toBe(202);
  return waitForImport(app, who, res.json<ImportJob>().id, timeoutMs);
}

/** The fields that send a plan with an import. */
export const planFields = (plan: Partial<ImportPlan>) => ({ plan: JSON.stringify(plan) });

export async function previewFile(
  app: FastifyInstance,
  who: { token: string },
  file: Buffer,
  filename: string,
  fields: Record<string, string> = {},
): Promise<ImportPreview> {
  const res = await uploadTo(app, '/api/imports/preview', who, file, filename, fields);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ImportPreview>();
}

/** The chapters of an imported book, in order, with their content, as its author sees them. */
export async function importedChapters(
  app: FastifyInstance,
  who: { token: string },
  bookId: number,
) {
  const list = (await as(app, who).get(`/api/authors/books/${bookId}/chapters`)).json()
    .chapters as Array<{ id: number; title: string; is_published: boolean; word_count: number }>;
  return Promise.all(
    list.map(async (c) => ({
      ...c,
      content: (await as(app, who).get(`/api/chapters/${c.id}`)).json().content as string,
    })),
  );
}

/** The first `count` lines of a chapter's content as text, one per block. */
export const openingLines = (html: string, count: number) =>
  html
    .replace(/<[^>]+>/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .slice(0, count);
