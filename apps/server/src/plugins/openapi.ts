import type { FastifyInstance, FastifySchema } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { publicRoute } from '../lib/route-schema.ts';

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
 * path, and `security` from the route's `config.access` (lib/route-schema.ts): `[]` for `publicRoute`,
 * the bearer token for `guard(…)` and for an `/api` route that says neither (the auth hook refuses it).
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
  // One declaration, two effects: the auth hook checks what `config.access` says and the document says
  // the same. test/openapi/security.test.ts calls every operation without a token to hold them together.
  const access = input.route.config?.access;
  const open = access === 'public' || !input.url.startsWith('/api/');
  schema.security = open ? [] : [{ bearer: [] }];
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
  // The document and its viewer are public, like the API they describe.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, ...publicRoute };
    });
    await docs.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  });
}
