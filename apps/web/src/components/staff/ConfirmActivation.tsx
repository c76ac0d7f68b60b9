import { Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmedActivation } from '../../api/training.ts';
import { errorMessage } from '../../lib/api.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { useSession } from '../../lib/use-session.ts';

/**
 * For an administrator, a retrained version the gate did not activate on its own (docs/decisions/0118):
 * its field figures once more, a box to say they were read, and the activation, which the server records.
 */
export function ConfirmActivation({ id, version, lines }: { id: number; version: string; lines: string[] }) {
  const { t } = useTranslation();
  const { role } = useSession();
  const [open, setOpen] = useState(false);
  const [read, setRead] = useState(false);
  const activate = useConfirmedActivation();
  if (role !== 'admin') return null;
  return (
    <>
      <Button size="sm" variant="light" onClick={() => setOpen(true)} data-testid="override-open">
        {t('training.fieldGate.override.open', { version })}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('training.fieldGate.override.title', { version })}>
        <Stack gap="sm" data-testid="override-figures">
          <Text size="sm">{t('training.fieldGate.override.intro')}</Text>
          {lines.map((line) => (
            <Text key={line} size="sm">
              {line}
            </Text>
          ))}
          <Checkbox
            label={t('training.fieldGate.override.read')}
            checked={read}
            onChange={(e) => setRead(e.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('training.fieldGate.override.cancel')}
            </Button>
            <Button
              disabled={!read}
              loading={activate.isPending}
              onClick={() =>
                activate.mutate(id, {
                  onSuccess: () => {
                    setOpen(false);
                    notifySuccess(t('training.activated', { version }));
                  },
                  onError: (err) => notifyError(errorMessage(err)),
                })
              }
            >
              {t('training.fieldGate.override.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
