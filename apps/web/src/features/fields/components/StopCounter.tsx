import { useId } from 'react';
import { ActionIcon, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * A count at a stop with big − and + buttons (64 px, for a thumb in the field) and the number between
 * them, which can also be typed. The count stays between 0 and `max`.
 */
export function StopCounter({
  label,
  value,
  max,
  onChange,
  hint,
  testId,
}: {
  label: string;
  value: number;
  max: number;
  onChange: (value: number) => void;
  /** Said under the count (why + is off). */
  hint?: string | null;
  testId: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const set = (n: number) => onChange(Math.max(0, Math.min(max, n)));
  return (
    <Stack gap={6} data-testid={testId}>
      <Text fw={600} id={id} ta="center">
        {label}
      </Text>
      <Group gap="md" wrap="nowrap" justify="center">
        <ActionIcon
          size={64}
          radius="xl"
          variant="light"
          onClick={() => set(value - 1)}
          disabled={value <= 0}
          aria-label={t('fields.walk.less', { what: label })}
        >
          <IconMinus size={32} />
        </ActionIcon>
        <TextInput
          aria-labelledby={id}
          value={String(value)}
          inputMode="numeric"
          size="xl"
          w={104}
          styles={{ input: { textAlign: 'center', fontSize: 30, fontWeight: 700 } }}
          onChange={(e) => {
            const n = Number.parseInt(e.currentTarget.value.replace(/\D/g, ''), 10);
            set(Number.isNaN(n) ? 0 : n);
          }}
          onFocus={(e) => e.currentTarget.select()}
          data-testid={`${testId}-value`}
        />
        <ActionIcon
          size={64}
          radius="xl"
          variant="filled"
          onClick={() => set(value + 1)}
          disabled={value >= max}
          aria-label={t('fields.walk.more', { what: label })}
        >
          <IconPlus size={32} />
        </ActionIcon>
      </Group>
      {hint && (
        <Text size="sm" c="dimmed" ta="center">
          {hint}
        </Text>
      )}
    </Stack>
  );
}
