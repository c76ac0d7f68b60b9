import { type FormEvent, useState } from 'react';
import { Box, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { USSD_SCREEN_MAX } from '@kutu/contract/phone-paths';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { useSessionField } from '../../../lib/use-session.ts';
import { useUssdStep } from '../../../api/phone.ts';
// Its strings come with it, not with a farmer's screens (lib/locale-parts.ts); the router waits for them.
export { screenStringsReady } from '../../../lib/staff-strings.ts';

const newSession = () => `sim-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Administrators and experts: the USSD menu as a basic phone shows it, each step through the server's
 * real menu (docs/decisions/0051). The number is the caller's own, or one without an account to try
 * registering; the server refuses anyone else's.
 */
export default function UssdSimulatorPage() {
  const { t } = useTranslation();
  const ownPhone = useSessionField((u) => u?.phone ?? '');
  const [phone, setPhone] = useState(ownPhone);
  const [sessionId, setSessionId] = useState(newSession);
  const [answers, setAnswers] = useState<string[] | null>(null);
  const [screen, setScreen] = useState<{ text: string; end: boolean } | null>(null);
  const [input, setInput] = useState('');
  const step = useUssdStep();

  const send = (next: string[]) =>
    step.mutate(
      { session_id: sessionId, phone: phone.trim(), text: next.join('*') },
      {
        onSuccess: (reply) => {
          setAnswers(next);
          setScreen({ text: reply.screen, end: reply.end });
          setInput('');
        },
      },
    );
  const dial = () => {
    const id = newSession();
    setSessionId(id);
    setScreen(null);
    step.reset();
    step.mutate(
      { session_id: id, phone: phone.trim(), text: '' },
      {
        onSuccess: (reply) => {
          setAnswers([]);
          setScreen({ text: reply.screen, end: reply.end });
        },
      },
    );
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!answers || screen?.end || input.trim() === '') return;
    send([...answers, input.trim()]);
  };
  const hangUp = () => {
    setAnswers(null);
    setScreen(null);
    setInput('');
  };

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('phone.simulator.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('phone.simulator.intro')}
      </Text>
      <TextInput
        label={t('phone.simulator.number')}
        description={t('phone.simulator.numberHint')}
        value={phone}
        onChange={(e) => setPhone(e.currentTarget.value)}
        inputMode="tel"
        maw={320}
      />
      <Paper
        withBorder
        radius={28}
        p="md"
        w="100%"
        maw={340}
        bg="dark.7"
        aria-label={t('phone.simulator.phone')}
        component="section"
      >
        <Box
          bg="gray.0"
          c="dark.9"
          p="sm"
          mih={220}
          style={{ borderRadius: 8, fontFamily: 'monospace', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          role="status"
          aria-live="polite"
          data-testid="ussd-screen"
        >
          {screen ? screen.text : t('phone.simulator.idle')}
        </Box>
        {screen && (
          <Text size="xs" c="gray.3" mt={4}>
            {t('phone.simulator.length', { count: screen.text.length, max: USSD_SCREEN_MAX })}
          </Text>
        )}
        {step.isError && (
          <Text size="sm" c="red.3" mt="xs" role="alert">
            {errorMessage(step.error)}
          </Text>
        )}
        <form onSubmit={submit} noValidate>
          <Stack gap="xs" mt="sm">
            {answers && !screen?.end && (
              <TextInput
                aria-label={t('phone.simulator.answer')}
                placeholder={t('phone.simulator.answer')}
                value={input}
                onChange={(e) => setInput(e.currentTarget.value)}
                inputMode="text"
                autoComplete="off"
                data-autofocus
              />
            )}
            <Group grow gap="xs">
              {answers && !screen?.end ? (
                <>
                  <Button type="submit" color="green" loading={step.isPending}>
                    {t('phone.simulator.send')}
                  </Button>
                  <Button type="button" color="red" variant="light" onClick={hangUp}>
                    {t('phone.simulator.hangUp')}
                  </Button>
                </>
              ) : (
                <Button type="button" color="green" onClick={dial} loading={step.isPending}>
                  {t('phone.simulator.dial')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
