import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readVoiceXml, startVoiceApi } from '../../test/support/voice-gateway.ts';
import { createVoiceCalls, voiceResponse } from './voice-calls.ts';

describe("Africa's Talking voice: the call API and the answers' XML", () => {
  let gateway: Awaited<ReturnType<typeof startVoiceApi>>;
  beforeAll(async () => {
    gateway = await startVoiceApi();
  });
  afterAll(() => gateway.close());

  it('asks the gateway to call a number from Kutu’s number, and says when it will not', async () => {
    const calls = createVoiceCalls({
      apiUrl: gateway.url,
      apiKey: gateway.apiKey,
      username: gateway.username,
      from: '+254711082000',
    });
    expect(calls.kind).toBe('gateway');
    expect(await calls.dial('+256700111222')).toEqual({ sessionId: 'ATVId_1' });
    expect(gateway.calls).toEqual([{ to: '+256700111222', from: '+254711082000' }]);
    const wrongKey = createVoiceCalls({ apiUrl: gateway.url, apiKey: 'nope', username: gateway.username, from: '+1' });
    await expect(wrongKey.dial('+256700111222')).rejects.toThrow(/did not place the call: 401/);
  });

  it('only logs a call without a gateway', async () => {
    const logged: object[] = [];
    const calls = createVoiceCalls({ log: { info: (obj) => logged.push(obj) } });
    expect(calls.kind).toBe('log');
    expect(await calls.dial('+256700111222')).toEqual({ sessionId: null });
    expect(logged).toEqual([{ to: '+256700111222' }]);
  });

  it('writes GetDigits around its prompts, Play, Say and Record, escaping what it carries', () => {
    const xml = voiceResponse([
      {
        getDigits: {
          numDigits: 1,
          timeoutSeconds: 10,
          callbackUrl: 'https://kutu.example/api/phone/voice/?key=a&step=x',
        },
        prompt: [{ play: 'https://kutu.example/a.mp3?sig=1' }, { say: 'Press <1> & wait' }],
      },
      { say: "Goodbye, it's Kutu" },
      {
        record: { maxLengthSeconds: 30, timeoutSeconds: 5, callbackUrl: 'https://kutu.example/r', playBeep: true },
        prompt: [],
      },
    ]);
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<GetDigits numDigits="1" timeout="10" callbackUrl="https://kutu.example/api/phone/voice/?key=a&amp;step=x">' +
        '<Play url="https://kutu.example/a.mp3?sig=1"/><Say>Press &lt;1&gt; &amp; wait</Say></GetDigits>' +
        '<Say>Goodbye, it&apos;s Kutu</Say>' +
        '<Record maxLength="30" timeout="5" playBeep="true" callbackUrl="https://kutu.example/r"/></Response>',
    );
    const read = readVoiceXml(xml);
    expect(read.getDigits).toEqual({
      callbackUrl: 'https://kutu.example/api/phone/voice/?key=a&step=x',
      numDigits: 1,
      played: ['https://kutu.example/a.mp3?sig=1'],
    });
    expect(read.played).toEqual(['https://kutu.example/a.mp3?sig=1']);
    expect(read.said).toEqual(['Press <1> & wait', "Goodbye, it's Kutu"]);
  });
});
