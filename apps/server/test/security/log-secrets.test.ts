import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { deliveryApi, phoneApi } from '@kutu/contract';
import { loggerOptions } from '../../src/app.ts';

/** The gateway's callbacks carry their secrets in the URL (`?key=`, `?secret=`): the request log never has them. */
describe('secrets in callback URLs', () => {
  it('leaves the USSD key and the delivery-report secret out of the request log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = Fastify({ logger: { ...loggerOptions({ logLevel: 'info' }), stream } });
    app.post(deliveryApi.reports, async (_req, reply) => reply.code(204).send());
    app.post(phoneApi.ussd, async () => 'END ok');
    await app.inject({ method: 'POST', url: `${deliveryApi.reports}?secret=report-secret-0123456789&x=1` });
    await app.inject({ method: 'POST', url: `${phoneApi.ussd}?x=1&key=ussd-key-0123456789` });
    await app.inject({ method: 'POST', url: `${deliveryApi.reports}?Secret=report-secret-0123456789` });
    await app.close();

    const log = lines.join('');
    expect(log).not.toContain('report-secret-0123456789');
    expect(log).not.toContain('ussd-key-0123456789');
    expect(log).toContain(`${deliveryApi.reports}?secret=[redacted]&x=1`);
    expect(log).toContain(`${phoneApi.ussd}?x=1&key=[redacted]`);
  });
});
