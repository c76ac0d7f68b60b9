import { useEffect, useMemo, useState } from 'react';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { type Language, languages, nativeNames } from '@kutu/contract/enums';
import type { VoiceClip } from '@kutu/contract';
import { RECORDABLE_RESULT_KEYS } from '@kutu/contract/result-text';
import { FittingSegmentedControl } from '../../../components/FittingSegmentedControl.tsx';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import i18n from '../../../lib/i18n.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import {
  clipBytes,
  useDecideClip,
  usePendingClips,
  useSendClip,
  useVoicesInUse,
  useVoiceTexts,
} from '../../../api/voice.ts';
import { Recorder } from '../components/Recorder.tsx';
import { playBytes } from '../lib/play.ts';
import { type RecordableText, type TextState, textState } from '../lib/text-state.ts';
// Its strings come with it, not with a farmer's screens (lib/locale-parts.ts); the router waits for them.
export { screenStringsReady } from '../../../lib/staff-strings.ts';

const PAGE_SIZE = 10;

/** The catalogue of `language`, loaded if it is not yet (a Kiswahili expert recording Luganda). */
function useFixedT(language: Language): TFunction | null {
  const [t, setT] = useState<TFunction | null>(null);
  useEffect(() => {
    let live = true;
    setT(null);
    void i18n.loadLanguages(language).then(() => live && setT(() => i18n.getFixedT(language)));
    return () => {
      live = false;
    };
  }, [language]);
  return t;
}

function PendingClip({ clip, language }: { clip: VoiceClip; language: Language }) {
  const { t } = useTranslation();
  const decide = useDecideClip();
  const answer = (approve: boolean) =>
    decide.mutate(
      { id: clip.id, approve },
      {
        onSuccess: () => notifySuccess(t(approve ? 'phone.voices.approved' : 'phone.voices.rejected')),
        onError: (err) => notifyError(errorMessage(err)),
      },
    );
  return (
    <Card withBorder radius="md" padding="sm" component="article" data-testid={`pending-clip-${clip.id}`}>
      <Stack gap={6}>
        <Text size="sm" lang={language} style={{ whiteSpace: 'pre-wrap' }}>
          {clip.text}
        </Text>
        <Text size="xs" c="dimmed">
          {t('phone.voices.recordedBy', {
            name: clip.recorded_by,
            when: formatDateTime(clip.created_at),
            seconds: Math.round(clip.duration_ms / 1000),
          })}
        </Text>
        <Group gap="xs">
          <Button
            size="compact-sm"
            variant="subtle"
            leftSection={<IconPlayerPlay size={16} />}
            onClick={() => playBytes(clipBytes(clip.audio_url)).catch(() => notifyError(t('listen.failed')))}
          >
            {t('phone.voices.play')}
          </Button>
          {clip.mine ? (
            <Text size="xs" c="dimmed">
              {t('phone.voices.mine')}
            </Text>
          ) : (
            <>
              <Button size="compact-sm" color="green" loading={decide.isPending} onClick={() => answer(true)}>
                {t('phone.voices.approve')}
              </Button>
              <Button
                size="compact-sm"
                variant="light"
                color="red"
                disabled={decide.isPending}
                onClick={() => answer(false)}
              >
                {t('phone.voices.reject')}
              </Button>
            </>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

function TextToRecord({ item, language, state }: { item: RecordableText; language: Language; state: TextState }) {
  const { t } = useTranslation();
  const send = useSendClip();
  return (
    <Card withBorder radius="md" padding="sm" component="article" data-testid={`voice-text-${item.key}`}>
      <Stack gap={6}>
        <Group gap="xs" wrap="wrap">
          <Badge variant="light" tt="none">
            {t(`phone.voices.kind.${item.kind}`)}
          </Badge>
          <Badge
            variant="outline"
            tt="none"
            color={state === 'current' ? 'green' : state === 'outdated' ? 'orange' : 'gray'}
          >
            {t(`phone.voices.state.${state}`)}
          </Badge>
        </Group>
        <Text size="sm" lang={language} style={{ whiteSpace: 'pre-wrap' }}>
          {item.text}
        </Text>
        <Recorder
          sending={send.isPending}
          onSend={(audio) =>
            send.mutate(
              { key: item.key, language, text: item.text, audio },
              {
                onSuccess: () => notifySuccess(t('phone.voices.sent')),
                onError: (err) => notifyError(errorMessage(err)),
              },
            )
          }
        />
      </Stack>
    </Card>
  );
}

/**
 * Experts and administrators: Kutu's texts read aloud by people (docs/decisions/0087). Each text shows
 * whether a recording of its present words is in use; recordings wait for a second person's approval.
 */
export default function VoiceClipsPage() {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<Language>('lg');
  const [pendingPage, setPendingPage] = useState(1);
  const [textPage, setTextPage] = useState(1);
  const inLanguage = useFixedT(language);
  const server = useVoiceTexts(language);
  const inUse = useVoicesInUse(language);
  const pending = usePendingClips(language, pendingPage, PAGE_SIZE);

  const texts = useMemo<RecordableText[]>(() => {
    if (!inLanguage || !server.data) return [];
    const results = RECORDABLE_RESULT_KEYS.map((key) => ({ key, kind: 'result' as const, text: inLanguage(key) }));
    return [...results, ...server.data.results];
  }, [inLanguage, server.data]);
  const stateOf = (item: RecordableText) => textState(item, pending.data?.results ?? [], inUse.data?.clips ?? []);
  const shown = texts.slice((textPage - 1) * PAGE_SIZE, textPage * PAGE_SIZE);

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('phone.voices.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('phone.voices.intro')}
      </Text>
      <FittingSegmentedControl
        aria-label={t('phone.voices.language')}
        value={language}
        onChange={(v) => {
          setLanguage(v as Language);
          setPendingPage(1);
          setTextPage(1);
        }}
        data={languages.map((l) => ({ value: l, label: nativeNames[l] }))}
        maw={360}
      />

      <Title order={2} size="h4">
        {t('phone.voices.pending')}
      </Title>
      <ListState query={pending} empty={pending.data?.count === 0} emptyText={t('phone.voices.pendingNone')}>
        <Stack gap="sm">
          {pending.data?.results.map((clip) => (
            <PendingClip key={clip.id} clip={clip} language={language} />
          ))}
          <ListPagination
            page={pendingPage}
            pageSize={PAGE_SIZE}
            count={pending.data?.count ?? 0}
            onChange={setPendingPage}
            disabled={pending.isFetching}
          />
        </Stack>
      </ListState>

      <Title order={2} size="h4">
        {t('phone.voices.texts')}
      </Title>
      <ListState query={server} errorTitle={t('phone.voices.failed')}>
        <Stack gap="sm">
          {shown.map((item) => (
            <TextToRecord key={item.key} item={item} language={language} state={stateOf(item)} />
          ))}
          <ListPagination
            page={textPage}
            pageSize={PAGE_SIZE}
            count={texts.length}
            onChange={setTextPage}
            label={(range) => t('phone.voices.rows', range)}
          />
        </Stack>
      </ListState>
    </Stack>
  );
}
