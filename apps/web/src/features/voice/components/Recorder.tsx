import { useEffect, useRef, useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { IconMicrophone, IconPlayerPlay, IconPlayerStop, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { VOICE_CLIP_MAX_SECONDS } from '@kutu/contract/voice-paths';
import { playBytes } from '../lib/play.ts';

type Stage = { kind: 'idle' } | { kind: 'recording'; seconds: number } | { kind: 'recorded'; audio: Blob };

/**
 * Records one text with the browser's microphone (MediaRecorder): record, stop, hear it back, send. It
 * stops by itself at the longest a recording may be. The server checks what it receives by its content.
 */
export function Recorder({ onSend, sending }: { onSend: (audio: Blob) => void; sending: boolean }) {
  const { t } = useTranslation();
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [problem, setProblem] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  // Leaving the page mid-recording lets go of the microphone.
  useEffect(
    () => () => {
      for (const track of recorder.current?.stream.getTracks() ?? []) track.stop();
    },
    [],
  );

  async function record() {
    setProblem(null);
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setProblem(t('phone.voices.noMicrophone'));
      return;
    }
    const r = new MediaRecorder(stream);
    const chunks: Blob[] = [];
    const started = Date.now();
    const tick = setInterval(() => {
      const seconds = Math.floor((Date.now() - started) / 1000);
      if (seconds >= VOICE_CLIP_MAX_SECONDS) r.stop();
      else setStage({ kind: 'recording', seconds });
    }, 250);
    r.ondataavailable = (e) => chunks.push(e.data);
    r.onstop = () => {
      clearInterval(tick);
      for (const track of stream.getTracks()) track.stop();
      setStage({ kind: 'recorded', audio: new Blob(chunks, { type: r.mimeType }) });
    };
    recorder.current = r;
    r.start();
    setStage({ kind: 'recording', seconds: 0 });
  }

  return (
    <div>
      <Group gap="xs" wrap="wrap">
        {stage.kind === 'recording' ? (
          <>
            <Button
              size="compact-sm"
              color="red"
              leftSection={<IconPlayerStop size={16} />}
              onClick={() => recorder.current?.stop()}
            >
              {t('phone.voices.stop')}
            </Button>
            <Text size="sm" role="status">
              {t('phone.voices.recording', { seconds: stage.seconds })}
            </Text>
          </>
        ) : (
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconMicrophone size={16} />}
            onClick={() => void record()}
            disabled={sending}
          >
            {stage.kind === 'recorded' ? t('phone.voices.again') : t('phone.voices.record')}
          </Button>
        )}
        {stage.kind === 'recorded' && (
          <>
            <Button
              size="compact-sm"
              variant="subtle"
              leftSection={<IconPlayerPlay size={16} />}
              onClick={() => playBytes(stage.audio.arrayBuffer()).catch(() => setProblem(t('listen.failed')))}
            >
              {t('phone.voices.play')}
            </Button>
            <Button
              size="compact-sm"
              leftSection={<IconSend size={16} />}
              loading={sending}
              onClick={() => onSend(stage.audio)}
            >
              {t('phone.voices.send')}
            </Button>
          </>
        )}
      </Group>
      {problem && (
        <Text size="sm" c="red.8" role="alert">
          {problem}
        </Text>
      )}
    </div>
  );
}
