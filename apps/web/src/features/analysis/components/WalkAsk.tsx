import { Button, Paper, Stack, Text } from '@mantine/core';
import { IconWalk } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { fieldQuery } from '../../../api/fields.ts';
import { formatDate } from '../../../lib/format.ts';

/** A confident rust answer: the one the field's walk, not the leaf, decides what to do about (decision 0078). */
export const asksForWalk = (r: AnalysisResult) =>
  r.outcome === 'diagnosis' && r.rust_class === 'common_rust' && !r.unsure && !r.expert_answer;

/**
 * Rust on a leaf asks for a walk of its field: one leaf cannot say how much of the field has rust, and
 * that is what the advice rests on. A field walked since the photo says what the walk found instead.
 */
export function WalkAsk({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation();
  const field = result.field ?? null;
  // A diagnosis made on the phone (no id yet) was just made: no walk can be newer.
  const known = useQuery({ ...fieldQuery(field?.id ?? 0), enabled: field !== null && result.id !== 0 });
  const walk = known.data?.last_walk;
  const walked = walk && walk.walked_at >= result.created_at ? walk : null;
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="walk-ask">
      <Stack gap={6} align="flex-start">
        {walked && field ? (
          <Text size="sm" fw={600}>
            {t('analysis.field.walked', {
              name: field.name,
              date: formatDate(walked.walked_at),
              rust: walked.plants_rust,
              looked: walked.plants_looked,
            })}
          </Text>
        ) : (
          <>
            <Text size="sm" fw={600}>
              {t('analysis.field.walkAsk')}
            </Text>
            <Text size="sm">{t('analysis.field.walkWhy')}</Text>
          </>
        )}
        <Button
          component={Link}
          to={field ? (walked ? routes.field(field.id) : routes.fieldWalk(field.id)) : routes.fields}
          size="sm"
          leftSection={<IconWalk size={18} />}
          variant={walked ? 'light' : 'filled'}
          styles={{ label: { whiteSpace: 'normal' } }}
          h="auto"
          mih={36}
        >
          {walked
            ? t('analysis.field.seeField')
            : field
              ? t('analysis.field.walkButton', { name: field.name })
              : t('menu.fields')}
        </Button>
      </Stack>
    </Paper>
  );
}
