import { useEffect, useRef, useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlayerStop, IconVolume } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type Language, nativeNames } from '@kutu/contract/enums';
import { isSynthLanguage, SYNTH_LANGUAGES, type SynthLanguage, voiceFallbackOf } from '@kutu/contract/voice-paths';
import { currentLanguage } from '../../lib/language.ts';
import type { SpokenPart } from '../../lib/voice/script.ts';

export type { SpokenPart };

const FALLBACK_KEY = 'listenFallback';
/** The voice the reader chose for what has no recording, else their language's fallback (VOICE_LANGUAGES). */
const storedFallback = (language: Language) => (): SynthLanguage => {
  const stored = localStorage.getItem(FALLBACK_KEY);
  return stored && isSynthLanguage(stored) ? stored : voiceFallbackOf(language);
};

type Stage = 'idle' | 'loading' | 'playing';

/**
 * Reads out what a screen shows (docs/decisions/0087): the result, the advice, the follow-up question, the
 * expert's answer. The voice's code and files load on the first tap (not with the screen) and stay on the
 * phone. A language without a synthetic voice (VOICE_LANGUAGES: Luganda today): its reader hears its approved
 * recordings where there are some and picks a synthetic voice for the rest, as the button says.
 */
export function ListenButton({ parts, testId = 'listen' }: { parts: SpokenPart[]; testId?: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [stage, setStage] = useState<Stage>('idle');
  const [download, setDownload] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [fallback, setFallback] = useState<SynthLanguage>(storedFallback(language));
  const playing = useRef<{ stop(): void } | null>(null);
  useEffect(() => () => playing.current?.stop(), []);
  const voiceless = !isSynthLanguage(language);
  const named = { language: nativeNames[language] };

  async function start() {
    // Made by the tap itself: a phone lets only such a context sound.
    const ctx = new AudioContext();
    setStage('loading');
    setProblem(null);
    try {
      const { listen } = await import('../../lib/voice/listen.ts');
      const listening = await listen(parts, ctx, {
        language,
        fallback,
        onDownload: setDownload,
        onSound: () => {
          setDownload(null);
          setStage('playing');
        },
      });
      playing.current = listening;
      await listening.done;
    } catch {
      setProblem(t(navigator.onLine ? 'listen.failed' : 'listen.offline'));
    } finally {
      playing.current = null;
      setStage('idle');
      setDownload(null);
      void ctx.close();
    }
  }

  const stop = () => {
    playing.current?.stop();
    setStage('idle');
  };

  return (
    <Stack gap={4} align="flex-start" data-testid={testId}>
      <Group gap="xs" wrap="wrap">
        {stage === 'playing' ? (
          <Button size="compact-md" variant="light" leftSection={<IconPlayerStop size={18} />} onClick={stop}>
            {t('listen.stop')}
          </Button>
        ) : (
          <Button
            size="compact-md"
            variant="light"
            leftSection={<IconVolume size={18} />}
            loading={stage === 'loading'}
            onClick={() => void start()}
          >
            {t('listen.listen')}
          </Button>
        )}
        {/* The voice for what has no recording: a button per voice, one pressed (lighter than a segmented control). */}
        {voiceless && (
          <Group gap={4} role="group" aria-label={t('listen.fallbackChoice', named)}>
            {SYNTH_LANGUAGES.map((l) => (
              <Button
                key={l}
                size="compact-xs"
                variant={fallback === l ? 'filled' : 'default'}
                aria-pressed={fallback === l}
                onClick={() => {
                  localStorage.setItem(FALLBACK_KEY, l);
                  setFallback(l);
                }}
              >
                {nativeNames[l]}
              </Button>
            ))}
          </Group>
        )}
      </Group>
      {voiceless && (
        <Text size="xs" c="dimmed">
          {t('listen.noVoice', named)}
        </Text>
      )}
      {/* Only before the first sound: a Luganda reading downloads the voice for its other parts while a recording plays. */}
      {stage === 'loading' && download !== null && (
        <Text size="xs" role="status">
          {t('listen.loading', { percent: Math.round(download * 100) })}
        </Text>
      )}
      {problem && (
        <Text size="xs" c="red.8" role="alert">
          {problem}
        </Text>
      )}
    </Stack>
  );
}
