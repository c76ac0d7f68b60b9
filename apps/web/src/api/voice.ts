import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Language, VoiceClip, VoiceClipPage, VoicePack, VoiceTextList } from '@kutu/contract';
import { voiceApi } from '@kutu/contract/voice-paths';
import { http } from '../lib/api.ts';
import { session } from '../lib/session.ts';

const voiceKey = ['voice-clips'] as const;

/** The server's texts to record in a language (advice entries, the phone call's sentences). */
export const useVoiceTexts = (language: Language) =>
  useQuery({
    queryKey: [...voiceKey, 'texts', language],
    queryFn: ({ signal }) => http.get<VoiceTextList>(voiceApi.texts, { language }, signal),
  });

/** The approved recordings in use for a language, each with the words it reads. */
export const useVoicesInUse = (language: Language) =>
  useQuery({
    queryKey: [...voiceKey, 'in-use', language],
    queryFn: ({ signal }) => http.get<VoicePack>(voiceApi.pack, { language }, signal),
  });

/** A page of recordings that wait for a second person. */
export const usePendingClips = (language: Language, page: number, pageSize: number) =>
  useQuery({
    queryKey: [...voiceKey, 'pending', language, page, pageSize],
    queryFn: ({ signal }) =>
      http.get<VoiceClipPage>(voiceApi.clips, { language, state: 'pending', page, page_size: pageSize }, signal),
    placeholderData: keepPreviousData,
  });

export function useSendClip() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (clip: { key: string; language: Language; text: string; audio: Blob }) => {
      const form = new FormData();
      form.set('key', clip.key);
      form.set('language', clip.language);
      form.set('text', clip.text);
      form.set('audio', clip.audio, 'recording.webm');
      return http.upload<VoiceClip>(voiceApi.clips, form);
    },
    onSettled: () => void client.invalidateQueries({ queryKey: voiceKey }),
  });
}

export function useDecideClip() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, approve }: { id: number; approve: boolean }) =>
      http.post<VoiceClip>(voiceApi.clipDecisionPath(id), { approve }),
    onSettled: () => void client.invalidateQueries({ queryKey: voiceKey }),
  });
}

/** A recording's audio (signed in: pending ones only for experts and administrators). */
export async function clipBytes(url: string): Promise<ArrayBuffer> {
  const token = session.accessToken();
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new Error(String(res.status));
  return res.arrayBuffer();
}
