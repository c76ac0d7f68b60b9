import { lazy, Suspense } from 'react';
import { Anchor, Badge, Button, Card, Group, Loader, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { OfficerWeek } from '@kutu/contract';
import { nativeNames } from '@kutu/contract/enums';
import { formatDateTime } from '../../../lib/format.ts';

// The form and its schema load on the first "record" (the week itself stays within its byte budget).
const RecordActionForm = lazy(() => import('./RecordActionForm.tsx').then((m) => ({ default: m.RecordActionForm })));

type Farmer = OfficerWeek['farmers'][number];

/** A farmer who said "worse", walked a field and counted more rust, or asked for a call (one card): their number to call, and the call or visit recorded. */
export function FarmerToCall({ code, farmer: f }: { code: string; farmer: Farmer }) {
  const { t } = useTranslation();
  const [open, { toggle, close }] = useDisclosure(false);
  const last = f.actions[0];
  return (
    <Card withBorder radius="md" padding="sm" component="article" aria-label={f.username}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
          {f.username}
        </Text>
        <Group gap={4}>
          {f.reasons.map((reason) => (
            <Badge key={reason} color={reason === 'callback' ? 'blue' : 'red'} variant="light">
              {t(`extension.farmers.reason.${reason}`)}
            </Badge>
          ))}
        </Group>
      </Group>
      <Text size="sm">
        <Anchor href={`tel:${f.phone}`}>{f.phone}</Anchor> · {nativeNames[f.language]} · {formatDateTime(f.at)}
      </Text>
      {last ? (
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t(`extension.farmers.last.${last.kind}`, { who: last.officer, when: formatDateTime(last.at) })}: {last.note}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          {t('extension.farmers.nobodyYet')}
        </Text>
      )}
      {open ? (
        <Suspense fallback={<Loader size="sm" mt="xs" aria-label={t('extension.farmers.record')} />}>
          <RecordActionForm code={code} farmer={f} onDone={close} />
        </Suspense>
      ) : (
        <Button size="sm" variant="light" mt="xs" onClick={toggle}>
          {t('extension.farmers.record')}
        </Button>
      )}
    </Card>
  );
}
