import { Button, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { fieldQuery } from '../../../api/fields.ts';
import { formatDate } from '../../../lib/format.ts';

// Loaded with the result that shows it (ResultCard), with the fields screens' strings.
export { screenStringsReady } from '../../../lib/fields-strings.ts';

/**
 * Rust on a leaf asks for a walk of its field: one leaf cannot say how much of the field has rust, and
 * that is what the advice rests on. A field walked lately (the server's `walk_asked` false) or since the
 * photo says what its last walk found instead.
 */
function WalkAsk({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation();
  const field = result.field ?? null;
  // A diagnosis made on the phone (no id yet) was just made: no walk can be newer.
  const known = useQuery({ ...fieldQuery(field?.id ?? 0), enabled: field !== null && result.id !== 0 });
  const walk = known.data?.last_walk;
  const walked = walk && (result.walk_asked === false || walk.walked_at >= result.created_at) ? walk : null;
  // Walked lately, says the server: what that walk found shows once the field is in.
  if (result.walk_asked === false && !walked) return null;
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="walk-ask">
      <Stack gap={6} align="flex-start">
        {walked && field ? (
          <Text size="sm" fw={600}>
            {t('fields.result.walked', {
              name: field.name,
              date: formatDate(walked.walked_at),
              rust: walked.plants_rust,
              looked: walked.plants_looked,
            })}
          </Text>
        ) : (
          <Text size="sm" fw={600}>
            {t('fields.result.walkAsk')}
          </Text>
        )}
        <Button
          component={Link}
          to={field ? (walked ? routes.field(field.id) : routes.fieldWalk(field.id)) : routes.fields}
          size="sm"
          variant={walked ? 'light' : 'filled'}
          styles={{ label: { whiteSpace: 'normal' } }}
          h="auto"
          mih={36}
        >
          {walked
            ? t('fields.result.seeField')
            : field
              ? t('fields.result.walkButton', { name: field.name })
              : t('menu.fields')}
        </Button>
      </Stack>
    </Paper>
  );
}

/** The result's field by name, and on a rust answer the ask for a walk of it (ResultCard decides). */
export default function ResultField({ result, askWalk }: { result: AnalysisResult; askWalk: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {result.field && (
        <Text size="sm" c="dimmed" data-testid="result-field">
          {t('fields.result.name', { name: result.field.name })}
        </Text>
      )}
      {askWalk && <WalkAsk result={result} />}
    </>
  );
}
