import type { Language, VoicePack } from '@kutu/contract';
import { voiceApi } from '@kutu/contract/voice-paths';
import { fetchFile, http } from '../api.ts';

/** The recordings, once heard, stay here: a Luganda farmer hears them again offline. */
export const CLIPS_CACHE = 'kutu-voice-clips';
const packKey = (language: Language) => `voicePack.${language}`;

function kept(language: Language): VoicePack | null {
  try {
    const raw = localStorage.getItem(packKey(language));
    return raw ? (JSON.parse(raw) as VoicePack) : null;
  } catch {
    return null;
  }
}

async function refresh(language: Language): Promise<VoicePack> {
  const pack = await http.get<VoicePack>(voiceApi.pack, { language });
  localStorage.setItem(packKey(language), JSON.stringify(pack));
  return pack;
}

/**
 * A language's approved recordings and advice texts (docs/decisions/0087): the copy kept on the phone at
 * once when there is one (refreshed behind it), else the server's; null offline before the first.
 */
export async function voicePack(language: Language): Promise<VoicePack | null> {
  const stored = kept(language);
  if (stored) {
    void refresh(language).catch(() => undefined);
    return stored;
  }
  return refresh(language).catch(() => null);
}

/** A recording's MP3: from the phone's cache, else downloaded (signed in) and kept. */
export async function clipAudio(url: string): Promise<ArrayBuffer> {
  const cache = 'caches' in window ? await caches.open(CLIPS_CACHE) : null;
  const hit = await cache?.match(url);
  if (hit) return hit.arrayBuffer();
  const res = await fetchFile(url);
  if (!res.ok) throw new Error(`recording: HTTP ${res.status}`);
  await cache?.put(url, res.clone());
  return res.arrayBuffer();
}
