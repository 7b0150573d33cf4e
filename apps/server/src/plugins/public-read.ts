import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import type { AnswerScope } from './read-cache.ts';

/**
 * Route options for hot JSON answers (docs/decisions/0010-fast-serialization-and-caching-headers.md):
 * fast-json-stringify, compiled once per route and status from the same zod schema the contract
 * declares (as JSON Schema), instead of a zod encode plus JSON.stringify on every answer. It
 * writes exactly the schema's properties, as zod's strip did.
 */
const fastSerializer = {
  serializerCompiler: ({ schema }: { schema: unknown }) => {
    const stringify = fastJson(
      z.toJSONSchema(schema as z.ZodType, { io: 'output', target: 'draft-7' }) as object,
    );
    return (data: unknown) => stringify(data);
  },
};

/** For hot writes that answer a large object (the autosave answers the whole chapter). */
export const fastAnswer = fastSerializer;

/**
 * For reads whose answer to a visitor is the same for every visitor: fast serialization, and
 * the route declares itself a public read (ETag, 304, gzip, the answer cache: plugins/read-cache.ts).
 */
export const publicRead = { ...fastSerializer, config: { publicRead: true } };

/**
 * A public read kept in a scope of its own (comments, search): dropped by that scope's changes
 * without every other kept answer going too, and by every change of everything.
 */
export const scopedPublicRead = (answerScope: AnswerScope) => ({
  ...fastSerializer,
  config: { publicRead: true, answerScope },
});
