import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Field } from '@kutu/contract';
import { useRetireField } from '../../../api/fields.ts';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';

/** Removes a field from the lists after a confirmation: its walks and photos stay in the history. */
export default function RetireDialog({
  field,
  opened,
  onClose,
  onRetired,
}: {
  field: Field;
  opened: boolean;
  onClose: () => void;
  onRetired: () => void;
}) {
  const { t } = useTranslation();
  const retire = useRetireField();
  const confirm = () =>
    retire.mutate(field.id, {
      onSuccess: () => {
        notifySuccess(t('fields.retire.done', { name: field.name }));
        onRetired();
      },
      onError: (err) => notifyError(errorMessage(err)),
    });
  return (
    <Modal opened={opened} onClose={onClose} title={t('fields.retire.title', { name: field.name })} centered>
      <Stack>
        <Text size="sm">{t('fields.retire.text')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('fields.retire.keep')}
          </Button>
          <Button color="red" onClick={confirm} loading={retire.isPending} data-testid="retire-confirm">
            {t('fields.retire.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
