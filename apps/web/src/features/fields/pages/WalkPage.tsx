import { useState } from 'react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Field, GrowthStage, Walk, WalkStop } from '@kutu/contract';
import { WALK_PLANTS_PER_STOP, WALK_STOPS } from '@kutu/contract/field-rules';
import { routes } from '../../../config/routes.ts';
import { reloadFields, useField } from '../../../api/fields.ts';
import { errorMessage } from '../../../lib/api.ts';
import { transient } from '../../../lib/offline/queue.ts';
import {
  enqueueWalk,
  latestWalk,
  sendWalk,
  useWalkQueue,
  type WalkBody,
  walkOnPhone,
} from '../../../lib/offline/walks.ts';
import { ListState } from '../../../components/ListState.tsx';
import { WalkAnswer } from '../components/WalkAnswer.tsx';
import { HowToWalk, StopScreen } from '../components/WalkSteps.tsx';

export { screenStringsReady } from '../../../lib/fields-strings.ts';

const freshStop = (): WalkStop => ({ looked: WALK_PLANTS_PER_STOP, rust: 0 });

/** A walk of one field: the how-to, one screen per stop, then the answer (the server's, or the phone's offline). */
function Walking({ field }: { field: Field }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const queued = useWalkQueue();
  const [started, setStarted] = useState(false);
  const [stage, setStage] = useState<GrowthStage | ''>('');
  const [stops, setStops] = useState<WalkStop[]>(() => Array.from({ length: WALK_STOPS }, freshStop));
  const [index, setIndex] = useState(0);
  // Which stops the farmer has counted (changed a count there, or walked on past it): "so far" adds up only
  // those, never a stop's planned 10 plants before the farmer has looked at them.
  const [counted, setCounted] = useState<boolean[]>(() => Array.from({ length: WALK_STOPS }, () => false));
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<{ walk: Walk; onPhone: boolean } | null>(null);

  const countHere = () => setCounted((all) => all.map((c, i) => c || i === index));
  const change = (stop: WalkStop) => {
    setStops((all) => all.map((s, i) => (i === index ? stop : s)));
    countHere();
  };
  const move = (to: number) => {
    // On to the next stop, the farmer takes this one's counts as they stand; back leaves it as it was.
    if (to > index) countHere();
    setIndex(to);
  };
  const add = () => {
    countHere();
    setStops((all) => [...all.slice(0, index + 1), freshStop(), ...all.slice(index + 1)]);
    setCounted((all) => [...all.slice(0, index + 1), false, ...all.slice(index + 1)]);
    setIndex(index + 1);
  };
  const skip = () => {
    setStops((all) => all.filter((_, i) => i !== index));
    setCounted((all) => all.filter((_, i) => i !== index));
    setIndex(Math.min(index, stops.length - 2));
  };

  /** Online, the server answers; with no signal (or the signal lost on the way) the phone does and keeps the walk. */
  async function finish() {
    if (!stops.some((s) => s.looked > 0)) {
      setError(t('fields.walk.lookAtOne'));
      return;
    }
    const body: WalkBody = {
      stops,
      walked_at: new Date().toISOString(),
      ...(stage ? { growth_stage: stage } : {}),
    };
    const key = crypto.randomUUID();
    setError(null);
    setSending(true);
    try {
      if (navigator.onLine) {
        try {
          const walk = await sendWalk(field.id, body, key);
          setAnswer({ walk, onPhone: false });
          await reloadFields(client);
          return;
        } catch (err) {
          if (!transient(err)) throw err;
        }
      }
      const walk = walkOnPhone(field, body, latestWalk(field, queued));
      await enqueueWalk({ key, fieldId: field.id, body, answer: walk });
      setAnswer({ walk, onPhone: true });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSending(false);
    }
  }

  if (answer)
    return (
      <Stack gap="md">
        <WalkAnswer walk={answer.walk} onPhone={answer.onPhone} />
        <Group gap="sm">
          <Button component={Link} to={routes.field(field.id)} variant="light">
            {t('fields.answer.backToField')}
          </Button>
          <Button component={Link} to={routes.fields} variant="subtle">
            {t('fields.title')}
          </Button>
        </Group>
      </Stack>
    );
  if (!started) return <HowToWalk field={field} stage={stage} onStage={setStage} onStart={() => setStarted(true)} />;
  return (
    <StopScreen
      field={field}
      stops={stops}
      index={index}
      counted={counted}
      onChange={change}
      onMove={move}
      onAdd={add}
      onSkip={skip}
      onFinish={() => void finish()}
      finishing={sending}
      error={error}
    />
  );
}

/** "Walk this field": counts plants with rust at a few stops across the field, and says what to do. */
export default function WalkPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const field = useField(id);
  return (
    <Stack gap="md" maw={560}>
      <Button
        component={Link}
        to={routes.field(id)}
        variant="subtle"
        leftSection={<IconArrowLeft size={16} />}
        style={{ alignSelf: 'flex-start' }}
      >
        {field.data?.name ?? t('fields.title')}
      </Button>
      <Title order={1} size="h2">
        {field.data ? t('fields.walk.title', { name: field.data.name }) : t('fields.walkThis')}
      </Title>
      {field.isPending && field.fetchStatus === 'paused' ? (
        <Text data-testid="field-not-here">{t('fields.page.notOnPhone')}</Text>
      ) : (
        <ListState query={field} errorTitle={t('fields.page.notFound')}>
          {field.data && <Walking field={field.data} />}
        </ListState>
      )}
      <Text size="xs" c="dimmed">
        {t('fields.walk.works')}
      </Text>
    </Stack>
  );
}
