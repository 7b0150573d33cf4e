import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** OpenAPI 3.1 generated from the contract's zod schemas, at {base}/api/openapi.json, with a reference page at {base}/api/docs. */
async function openapiPlugin(app: FastifyInstance, { base }: { base: string }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Inkwell API',
        description:
          'Serialized fiction: books, chapters, authors, follows and history. Authenticated calls take `Authorization: Bearer <token>` or the `fastapi_token` cookie.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'fastapi_token' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  app.get(`${base}/api/openapi.json`, { schema: { hide: true } }, async () => app.swagger());

  const { default: reference } = await import('@scalar/fastify-api-reference');
  await app.register(reference, {
    routePrefix: `${base}/api/docs` as `/${string}`,
    configuration: { url: `${base}/api/openapi.json`, title: 'Inkwell API' },
  });
}

export const openapi = fp(openapiPlugin, { name: 'inkwell-openapi' });
