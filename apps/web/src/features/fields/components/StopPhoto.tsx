import { useRef, useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconCameraPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult, Field } from '@kutu/contract';
import { analysisKeys, uploadForAnalysis } from '../../../api/analysis.ts';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { formatConfidence } from '../../../lib/format.ts';
import { say } from '../../../lib/diagnosis-labels.ts';
import { useOfflineDiagnosis } from '../../../lib/offline/use-offline-diagnosis.ts';
import { preparePhoto } from '../../../lib/shrink.ts';

/**
 * "Photograph a leaf here": a leaf at a stop, diagnosed as any photo of the field is (online by the
 * server, with no signal on the phone when it can, queued with the field). `onAnalysed` gets the server's
 * analysis, which the walk's stop then names; a photo diagnosed on the phone has none yet.
 */
export default function StopPhoto({
  field,
  onAnalysed,
}: {
  field: Pick<Field, 'id' | 'name' | 'crop'>;
  onAnalysed: (analysisId: number | null) => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const offline = useOfflineDiagnosis();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<AnalysisResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function onPhone(photo: { blob: Blob; filename: string }) {
    if (!offline.available) throw new Error(t('fields.walk.photoNeedsSignal'));
    const { diagnoseOffline } = await import('../../../lib/offline/diagnose.ts');
    const result = await diagnoseOffline({ leaves: [photo], crop: field.crop, farmField: field });
    setAnswer(result);
    onAnalysed(null);
  }

  async function send(file: File) {
    setBusy(true);
    setError(null);
    try {
      const { photo, refusal } = await preparePhoto(file);
      if (refusal) throw new Error(t(refusal));
      if (!navigator.onLine) return await onPhone(photo);
      const form = new FormData();
      form.append('crop', field.crop);
      form.append('field_id', String(field.id));
      form.append('image', photo.blob, photo.filename);
      try {
        const result = await uploadForAnalysis(form, () => undefined);
        setAnswer(result);
        onAnalysed(result.id);
        await client.invalidateQueries({ queryKey: analysisKeys.all });
      } catch (err) {
        if (err instanceof ApiError && err.status === 0) await onPhone(photo);
        else throw err;
      }
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap={4} align="center">
      <Button
        variant="default"
        leftSection={<IconCameraPlus size={18} />}
        onClick={() => input.current?.click()}
        loading={busy}
        data-testid="stop-photo"
      >
        {t('fields.walk.photo')}
      </Button>
      <input
        ref={input}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        data-testid="stop-photo-input"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (file) void send(file);
        }}
      />
      {answer && (
        <Text size="sm" ta="center" data-testid="stop-photo-answer">
          {t('fields.walk.photoAnswer', {
            finding: say(t, answer.feedback.finding),
            confidence: formatConfidence(answer.confidence),
          })}
        </Text>
      )}
      {error && (
        <Text size="sm" c="red" role="alert" ta="center">
          {error}
        </Text>
      )}
    </Stack>
  );
}
