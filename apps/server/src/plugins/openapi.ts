import type { FastifyInstance, FastifySchema } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type Schema = FastifySchema & {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  response?: Record<string, unknown>;
};

const words = (s: string) => s.split(/[-_]/).filter(Boolean);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `GET /api/community/posts/:id/image/` → `getCommunityPostsByIdImage` (routes may set their own). */
export function operationIdFor(method: string, url: string): string {
  const parts = url
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .flatMap((seg) => (seg.startsWith(':') ? ['by', ...words(seg.slice(1))] : words(seg)));
  return method.toLowerCase() + parts.map(cap).join('');
}

/** The first sentence of the description, or the operation id in words. */
function summaryFor(schema: Schema, operationId: string): string {
  const first = schema.description?.split(/(?<=\.)\s|\n/)[0]?.trim();
  if (first && first.length <= 120) return first.replace(/\.$/, '');
  return cap(operationId.replace(/([A-Z])/g, ' $1').toLowerCase());
}

/**
 * Fills what every operation of the document needs and routes rarely write themselves (Redocly's
 * recommended rules, `npm run lint:openapi`): an operationId and a summary derived from method and
 * path, and `security: []` (public) where a route declares none.
 * Every /api/ route can answer 429 (the per-address limit), which the document says where no other
 * 4XX is declared. Only the document changes; validation and serialisation stay the routes' own.
 */
export function describeOperation(input: Parameters<typeof jsonSchemaTransform>[0]) {
  const out = jsonSchemaTransform(input);
  if ((input.schema as { hide?: boolean } | undefined)?.hide) return out;
  const schema = { ...(out.schema as Schema) };
  const method = ([] as string[]).concat(input.route.method)[0];
  schema.operationId ??= operationIdFor(method, input.url);
  schema.summary ??= summaryFor(schema, schema.operationId);
  // Routes that need a token declare it; the rest are public. test/openapi/security.test.ts calls
  // every operation without a token to hold the document to what the server does.
  schema.security ??= [];
  const response = schema.response ?? {};
  if (input.url.startsWith('/api/') && !Object.keys(response).some((code) => code.startsWith('4'))) {
    schema.response = {
      ...response,
      429: {
        description: 'Too many requests from this address; try again after `Retry-After` seconds',
        type: 'object',
        properties: {
          error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    };
  }
  return { schema, url: out.url };
}

/** The OpenAPI document at /api/docs/json and its viewer at /api/docs. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Kutu API',
        version: '0.1.0',
        description: 'Detect Early · Act Fast · Grow Smart',
        // No open licence: partners use the API under their agreement with the Kutu project.
        license: { name: 'Proprietary (partner agreement)', url: '/api/docs' },
      },
      // Relative: the document is served by the deployment it describes, at any PUBLIC_URL.
      servers: [{ url: '/', description: 'This deployment' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: describeOperation,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}
