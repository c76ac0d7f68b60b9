import type { FastifyInstance } from 'fastify';

/** The gateway's form posts (application/x-www-form-urlencoded) as plain objects, in the scope given only. */
export function parseForms(app: Pick<FastifyInstance, 'addContentTypeParser'>) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}
