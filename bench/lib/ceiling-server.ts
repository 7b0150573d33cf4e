/**
 * The raw ceiling: a bare node:http server answering, for each URL, the exact status, headers and
 * body the real server answered for it, from memory. No routing, no database, no serialization:
 * what is left is what any Node server pays to parse a request and write an answer.
 * Usage: node --import tsx bench/lib/ceiling-server.ts responses.json   (PORT in the environment)
 */
import fs from 'node:fs';
import http from 'node:http';
import type { RecordedResponse } from './capture.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: ceiling-server.ts responses.json');
const recorded = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, RecordedResponse>;
const answers = new Map(
  Object.entries(recorded).map(([url, r]) => [
    url,
    { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') },
  ]),
);
const notFound = Buffer.from('{"detail":"Not found","code":"not_found"}');

http
  .createServer((request, response) => {
    if (request.url === '/__ceiling_ready') {
      response.writeHead(200).end('ok');
      return;
    }
    const answer = answers.get(request.url ?? '');
    if (!answer) {
      response
        .writeHead(404, { 'content-type': 'application/json', 'content-length': notFound.length })
        .end(notFound);
      return;
    }
    // Drain a request body (none for reads) before answering, as any real server must.
    request.resume();
    response.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length });
    response.end(answer.body);
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
