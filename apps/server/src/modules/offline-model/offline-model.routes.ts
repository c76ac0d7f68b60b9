import { createReadStream } from 'node:fs';
import { z } from 'zod';
import { offlineModelApi, offlineModelInfo, offlineModelVersionParam } from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { createOfflineModelService } from './offline-model.service.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';

const errors = errorReplies(401, 403, 404, 429, 503);
const tags = ['offline-model'];

export function offlineModelRoutes(
  app: App,
  { services: { offlineModel: offline } }: RouteContext<{ offlineModel: ReturnType<typeof createOfflineModelService> }>,
) {
  const signedIn = guard('farmer', 'expert');

  app.get(
    offlineModelApi.info,
    {
      schema: {
        tags,
        description:
          "The model phones download to diagnose with no signal: version, file URL, size, checksum, decision thresholds (with each crop's unsure cut learnt from verified field photos, where the server answers with it), and the advice and education resources to show offline (in the reader's language: the account's, else Accept-Language, where translated, else English). Revalidated on every app start (no-cache); the file itself is immutable.",
        response: { 200: offlineModelInfo, ...errors },
      },
      config: signedIn,
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-cache');
      reply.header('vary', 'accept-language');
      return offline.info(await req.language());
    },
  );

  app.get(
    offlineModelApi.file,
    {
      schema: {
        tags,
        description: 'The ONNX model file of the active version (404 for any other version).',
        params: offlineModelVersionParam,
        response: { 200: z.any(), ...errors },
      },
      config: signedIn,
    },
    async (req, reply) => {
      const file = await offline.file(req.params.version);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', file.bytes)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(file.path));
    },
  );
}
