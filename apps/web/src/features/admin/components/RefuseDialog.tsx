import { type FormEvent, useState } from 'react';
import { Button, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { type ApplicantKind, type Application, useDecide } from '../../../api/applications.ts';

/** The contract's REFUSAL_REASON_MAX (kept here: the contract's index would bring zod to this screen). */
const REFUSAL_REASON_MAX = 500;

/**
 * Refusing an expert's or an officer's application, or withdrawing an approved officer, with the reason
 * they are told.
 */
export function RefuseDialog({
  kind,
  application,
  onClose,
}: {
  kind: ApplicantKind;
  application: Application | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const decide = useDecide(kind);
  const withdraw = application?.status === 'approved';
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const close = () => {
    setReason('');
    setError(undefined);
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!application) return;
    if (reason.trim().length < 3) {
      setError(t('vetting.admin.reasonNeeded'));
      return;
    }
    decide.mutate(
      { id: application.id, reason: reason.trim(), from: application.status },
      {
        onSuccess: () => {
          notifySuccess(
            withdraw
              ? t('vetting.admin.withdrawn', { name: application.username })
              : t('vetting.admin.refused', { name: application.username }),
          );
          close();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.fields.reason) setError(err.fields.reason);
          else notifyError(errorMessage(err));
        },
      },
    );
  };
  return (
    <Modal
      opened={application !== null}
      onClose={close}
      title={withdraw ? t('vetting.admin.withdrawTitle') : t('vetting.admin.refuseTitle')}
      centered
    >
      {application && (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm">
              {withdraw
                ? t('vetting.admin.withdrawHint', { name: application.username })
                : t('vetting.admin.refuseHint', { name: application.username })}
            </Text>
            <Textarea
              label={t('vetting.admin.reason')}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              error={error}
              maxLength={REFUSAL_REASON_MAX}
              autosize
              minRows={3}
              required
              data-autofocus
            />
            <Button type="submit" color="red" loading={decide.isPending}>
              {withdraw ? t('vetting.admin.withdraw') : t('vetting.admin.refuse')}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
