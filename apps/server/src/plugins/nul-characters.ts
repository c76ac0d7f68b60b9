import type { FastifyInstance } from 'fastify';
import { refuseNulCharacters } from '../lib/nul-characters.ts';

/**
 * At the edge, before any route's own checks (PostgreSQL text cannot hold NUL: let through, it would
 * fail as a 500 with the query in the log): a NUL character in a JSON body, a query
 * or a path parameter is a 400 with the field named, on every route. Multipart text fields are
 * checked where they are read (lib/image-upload.ts).
 */
export function registerNulCharacterGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    refuseNulCharacters(req.params);
    refuseNulCharacters(req.query);
    if (!Buffer.isBuffer(req.body)) refuseNulCharacters(req.body);
  });
}
