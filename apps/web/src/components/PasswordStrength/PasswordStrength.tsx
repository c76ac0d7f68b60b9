import { useEffect, useState } from 'react';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { passwordStrength, type StrengthLevel } from '@kutu/contract/rules';
import { useTranslation } from 'react-i18next';
import { meter, type MeterResult } from './meter.ts';

const levelLook: Record<StrengthLevel, { value: number; color: string; key: string }> = {
  'Too weak': { value: 10, color: 'red', key: 'tooWeak' },
  Weak: { value: 35, color: 'orange', key: 'weak' },
  Medium: { value: 70, color: 'yellow', key: 'medium' },
  Strong: { value: 100, color: 'green', key: 'strong' },
};
const meterColors = ['red', 'orange', 'yellow', 'lime', 'green'] as const;

/** The zxcvbn meter for a password, computed after typing pauses; null while empty or loading. */
export function usePasswordMeter(password: string, userInputs: string[] = []): MeterResult | null {
  const [debounced] = useDebouncedValue(password, 150);
  const [result, setResult] = useState<MeterResult | null>(null);
  const inputsKey = userInputs.join('\u0000');
  useEffect(() => {
    if (!debounced) {
      setResult(null);
      return;
    }
    let live = true;
    meter(debounced, inputsKey ? inputsKey.split('\u0000') : [])
      .then((r) => {
        if (live) setResult(r);
      })
      .catch((err: unknown) => console.error('Password meter failed', err));
    return () => {
      live = false;
    };
  }, [debounced, inputsKey]);
  return password ? result : null;
}

export interface PasswordStrengthProps {
  password: string;
  /** Words the password should not be built from (email, username). */
  userInputs?: string[];
}

/**
 * The spec's strength bar (Too weak, Weak, Medium, Strong: the rule the server applies) and the 0–4
 * meter (risky, guessable, weak, safe, secure) that also knows common passwords.
 */
export function PasswordStrength({ password, userInputs }: PasswordStrengthProps) {
  const { t } = useTranslation();
  const level = passwordStrength(password);
  const look = levelLook[level];
  const result = usePasswordMeter(password, userInputs);
  const levelText = t(`auth.strength.levels.${look.key}`);
  return (
    <Stack gap={6} data-testid="password-strength">
      <Progress.Root size="sm">
        <Progress.Section
          value={password ? look.value : 0}
          color={look.color}
          withAria={false}
          role="progressbar"
          aria-label={t('auth.strength.bar')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={password ? look.value : 0}
          aria-valuetext={password ? levelText : t('auth.strength.empty')}
        />
      </Progress.Root>
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          {t('auth.strength.level')}:{' '}
          <Text span size="xs" fw={600} c={password ? look.color : 'dimmed'} data-testid="strength-level">
            {password ? levelText : '—'}
          </Text>
        </Text>
        <Text size="xs" c="dimmed">
          {t('auth.strength.meter')}:{' '}
          <Text
            span
            size="xs"
            fw={600}
            c={result ? meterColors[result.score] : 'dimmed'}
            data-testid="meter-label"
            data-score={result?.score}
          >
            {result ? `${t(`auth.strength.meterLabels.${result.label}`)} (${result.score}/4)` : '—'}
          </Text>
        </Text>
      </Group>
      {result && result.score < 3 && (result.warning || result.suggestions[0]) ? (
        <Text size="xs" c="dimmed">
          {result.warning || result.suggestions[0]}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed">
        {t('auth.strength.hint')}
      </Text>
    </Stack>
  );
}
