import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forecastApi, outbreakApi, phoneApi, SMALL_COUNT_MIN, voiceApi } from '@kutu/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Speech } from '../../adapters/speech.ts';
import { createVoiceCalls } from '../../adapters/voice-calls.ts';
import { createOpenMeteo } from '../../adapters/weather.ts';
import { deliveries, notifications, users } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { insertField } from '../../../test/support/fields.ts';
import { weatherPointsOf } from '../../../test/support/open-meteo.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { readVoiceXml, startVoiceApi } from '../../../test/support/voice-gateway.ts';

const KEY = 'gateway-secret-for-the-voice-advisories';
// Bukedea (UG-219), next to Mbale (UG-209) where maize rust is confirmed: cool wet nights make its week high.
const MBALE = 'UG-209';
const BUKEDEA = 'UG-219';
const wet = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/open-meteo/cool-wet-nights.json', import.meta.url), 'utf8'),
);

/**
 * A local Open-Meteo answering every place with the same cool wet nights; each answer closes its connection
 * (see startOpenMeteo in test/support/open-meteo.ts).
 */
function openMeteo(): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const lats = (url.searchParams.get('latitude') ?? '').split(',');
    const lngs = (url.searchParams.get('longitude') ?? '').split(',');
    const body = lats.map((lat, i) => ({ ...wet, latitude: Number(lat), longitude: Number(lngs[i]) }));
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
    res.end(JSON.stringify(body.length === 1 ? body[0] : body));
  });
}

describe('a rust advisory by phone call, for a farmer who chose it', () => {
  let t: TestContext;
  let weather: Server;
  let gateway: Awaited<ReturnType<typeof startVoiceApi>>;
  let admin: TestUser;
  /** Kiswahili, chose calls on the web profile. */
  let caller: TestUser;
  /** Luganda (no voice of its own), chose calls on the USSD menu. */
  let lgCaller: TestUser;
  /** Did not choose calls. */
  let quiet: TestUser;
  /** Chose calls, then sent STOP. */
  let stopped: TestUser;
  /** An expert of the district who chose calls: staff advisories have no call. */
  let expert: TestUser;
  /** What the server's voice was asked to say, in which language (an eSpeak NG stand-in). */
  const spoken: { text: string; language: string }[] = [];
  const speech: Speech = {
    async synthesize(text, language) {
      spoken.push({ text, language });
      return { mp3: Buffer.from('ID3 stand-in audio'), durationMs: 1000, rms: 0.1 };
    },
    prepare: () => Promise.reject(new Error('no recordings in this test')),
    version: async () => 'stand-in-voice-1',
  };
  const db = () => t.deps.database.db;

  beforeAll(async () => {
    weather = openMeteo();
    await new Promise<void>((r) => weather.listen(0, '127.0.0.1', r));
    gateway = await startVoiceApi();
    t = await createTestApp({
      // The advisories go at 06:00 EAT, the hour the tests run (docs/decisions/0128).
      env: { AT_CALLBACK_SECRET: KEY, PHONE_RATE_LIMIT_MAX: '10000', ADVISORY_SEND_HOUR: '6' },
      calls: createVoiceCalls({
        apiUrl: gateway.url,
        apiKey: gateway.apiKey,
        username: gateway.username,
        from: '+254711082000',
      }),
      speech,
      weather: createOpenMeteo({
        url: `http://127.0.0.1:${(weather.address() as AddressInfo).port}`,
        timeoutMs: 10_000,
      }),
      weatherPoints: weatherPointsOf(BUKEDEA, MBALE),
    });
    t.clock.set(new Date('2026-12-01T03:00:00Z')); // 06:00 EAT, Tuesday
    admin = await createUser(t, 'admin');
    caller = await createUser(t, 'farmer', { language: 'sw' });
    lgCaller = await createUser(t, 'farmer', { language: 'lg', district: BUKEDEA });
    quiet = await createUser(t, 'farmer');
    stopped = await createUser(t, 'farmer');
    for (const f of [caller, lgCaller, quiet, stopped]) await insertField(db(), f.id, 'maize', { district: BUKEDEA });
    expert = await createUser(t, 'expert', { district: BUKEDEA });
    await db().update(users).set({ voiceWarnings: true }).where(eq(users.id, expert.id));
    await db().update(users).set({ voiceWarnings: true, smsStoppedAt: t.clock.now() }).where(eq(users.id, stopped.id));
    await db().execute(
      sql`insert into outbreak_counts (district, crop, week_start, demo, confirmed) values (${MBALE}, 'maize', '2026-11-30', false, ${SMALL_COUNT_MIN})`,
    );
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
    await new Promise((r) => weather.close(r));
  });

  const ussd = async (phone: string, text: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url: `${phoneApi.ussd}?key=${KEY}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ sessionId: `u${Math.random()}`, phoneNumber: phone, text }).toString(),
      })
    ).body;
  const run = async () => {
    const res = await t.app.inject({ method: 'POST', url: forecastApi.run, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
  };
  const voiceRows = () => db().select().from(deliveries).where(eq(deliveries.channel, 'voice'));
  const rowOf = async (u: TestUser) => (await voiceRows()).filter((r) => r.userId === u.id);
  /** The gateway's first request when the farmer answers the call Kutu placed (session `sessionId`). */
  const answered = async (sessionId: string, phone: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${voiceApi.call}?key=${KEY}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        isActive: '1',
        sessionId,
        direction: 'Outbound',
        callerNumber: phone,
        destinationNumber: '+254711082000',
      }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return readVoiceXml(res.body);
  };

  it('chooses calls on the web profile and by USSD', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: outbreakApi.settings,
      headers: caller.headers,
      payload: { voice_warnings: true },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ voice_warnings: true, sms_alerts: true });
    const me = await t.app.inject({ url: outbreakApi.settings, headers: caller.headers });
    expect(me.json()).toMatchObject({ voice_warnings: true });

    // Luganda, on the USSD menu's alerts screen: 2 chooses the calls.
    expect(await ussd(lgCaller.phone, '2')).toContain("\n2 Nkubira essimu ey'okulabula ku kutu");
    expect(await ussd(lgCaller.phone, '2*2')).toBe(
      `END Kutu ejja kukuba ${lgCaller.phone} obudde bwa kutu bwe bunaatuuka mu Bukedea, omulundi gumu mu wiiki ku bungi.`,
    );
    const [lg] = await db().select().from(users).where(eq(users.id, lgCaller.id));
    expect(lg?.voiceWarnings).toBe(true);
  });

  it('calls each farmer who chose it once in a high week, beside the SMS and the in-app notice; never the others', async () => {
    await run();
    // One call each to the two who chose calls; the quiet farmer, the stopped one and the expert: none.
    expect(gateway.calls.map((c) => c.to).sort()).toEqual([caller.phone, lgCaller.phone].sort());
    const [sw] = await rowOf(caller);
    expect(sw).toMatchObject({ state: 'sent', kind: 'alert' });
    expect(sw?.gatewayId).toMatch(/^ATVId_\d$/);
    // Not chosen: no row at all (not a skipped one per farmer of the district). Staff: no voice part.
    expect(await rowOf(quiet)).toEqual([]);
    expect(await rowOf(expert)).toEqual([]);
    // Chosen, but STOP stands: the call is not placed, as the SMS is not sent.
    expect(await rowOf(stopped)).toMatchObject([{ state: 'skipped', error: 'The number sent STOP' }]);
    expect(t.outbox.list().filter((e) => e.to === stopped.phone)).toEqual([]);

    // The SMS and the in-app notice still come, to the callers and to the quiet farmer.
    for (const f of [caller, lgCaller, quiet]) {
      expect(t.outbox.list().filter((e) => e.channel === 'sms' && e.to === f.phone)).toHaveLength(1);
      const inApp = await db()
        .select()
        .from(notifications)
        .where(sql`${notifications.userId} = ${f.id} and ${notifications.type} = 'rust_advisory'`);
      expect(inApp).toHaveLength(1);
    }

    // The next run, six hours later and still high: nobody is called (or told) again this week.
    t.clock.advance(6 * 3_600_000);
    await run();
    expect(gateway.calls).toHaveLength(2);
    expect(await voiceRows()).toHaveLength(3);
    expect(t.outbox.list().filter((e) => e.channel === 'sms' && e.to === caller.phone)).toHaveLength(1);
  });

  it("says the advisory when the farmer answers, in their language or the fallback voice's", async () => {
    const [sw] = await rowOf(caller);
    spoken.length = 0;
    const call = await answered(sw!.gatewayId!, caller.phone);
    // Kutu's welcome and the advisory, then the call ends (no key asked for).
    expect(call.getDigits).toBeNull();
    expect(call.played).toHaveLength(2);
    expect(spoken.map((s) => s.language)).toEqual(['sw', 'sw']);
    expect(spoken[1]?.text).toMatch(/^Hapa ni Kutu, na onyo la kutu\. Hali ya hewa Bukedea wiki hii/);
    // Each played address is this server's audio of what was said.
    for (const url of call.played) {
      const u = new URL(url);
      const audio = await t.app.inject({ url: `${u.pathname}${u.search}` });
      expect(audio.statusCode).toBe(200);
      expect(audio.headers['content-type']).toBe('audio/mpeg');
    }

    // Luganda has no voice and no recording of it: "no Luganda recording yet" in English, then English.
    const [lg] = await rowOf(lgCaller);
    spoken.length = 0;
    const lgCall = await answered(lg!.gatewayId!, lgCaller.phone);
    expect(lgCall.played).toHaveLength(3);
    expect(spoken.map((s) => s.language)).toEqual(['en', 'en', 'en']);
    expect(spoken[0]?.text).toContain('There is no Luganda recording of this yet');
    expect(spoken[2]?.text).toMatch(/^Kutu here, with a rust warning\. The weather in Bukedea this week/);

    // Any other call from the same farmer (theirs, or "hear it in a call") is the call menu as before.
    const other = await answered('ATVId_other', caller.phone);
    expect(other.getDigits).not.toBeNull();
  });

  it('turns the calls off on the USSD menu', async () => {
    expect(await ussd(lgCaller.phone, '2')).toContain("\n2 Lekera awo essimu ez'okulabula ku kutu");
    expect(await ussd(lgCaller.phone, '2*2')).toMatch(/^END Kutu tejja kukukuba ssimu/);
    const [lg] = await db().select().from(users).where(eq(users.id, lgCaller.id));
    expect(lg?.voiceWarnings).toBe(false);
  });
});
