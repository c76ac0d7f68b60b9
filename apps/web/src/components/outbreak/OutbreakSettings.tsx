import { type ReactNode, useState } from 'react';
import { Button, Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OutbreakSettingsBody, UserRecord } from '@kutu/contract';
import { districtByCode } from '@kutu/contract/districts';
import { errorMessage } from '../../lib/api.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { translateMessage } from '../../lib/validation.ts';
import { useOutbreakSettings } from '../../api/outbreak.ts';
import { DistrictPicker } from './DistrictPicker.tsx';

/** The district form: the picker and its save button (profile card and the one-time prompt). */
function DistrictForm({
  current,
  suggested,
  onSaved,
  extra,
}: {
  current: string;
  /** The farm location typed at sign-up: the picker offers the district it names. */
  suggested?: string;
  onSaved?: () => void;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const settings = useOutbreakSettings();
  const [district, setDistrict] = useState(current);
  const [error, setError] = useState<string | null>(null);
  const save = () => {
    if (!district) {
      setError(t('validation.chooseDistrict'));
      return;
    }
    settings.mutate(
      { district },
      {
        onSuccess: () => {
          setError(null);
          notifySuccess(t('profile.outbreak.saved'));
          onSaved?.();
        },
        onError: (err) => notifyError(errorMessage(err)),
      },
    );
  };
  return (
    <Stack gap="sm">
      <DistrictPicker
        value={district}
        suggested={suggested}
        onChange={(code) => {
          setDistrict(code);
          setError(null);
        }}
        error={error ? translateMessage(error) : undefined}
      />
      <Group gap="sm">
        <Button onClick={save} loading={settings.isPending} disabled={district === current} data-testid="district-save">
          {t('profile.outbreak.save')}
        </Button>
        {extra}
      </Group>
    </Stack>
  );
}

/** Profile: the district outbreak alerts use, and (farmers) whether they also come by SMS, and a rust warning by a call. */
export function OutbreakSettingsCard({ user }: { user: UserRecord }) {
  const { t } = useTranslation();
  const settings = useOutbreakSettings();
  const [editing, setEditing] = useState(!user.district);
  const name = user.district ? districtByCode(user.district)?.name : undefined;
  const sms = user.farmer?.sms_alerts ?? true;
  const save = (body: OutbreakSettingsBody) =>
    settings.mutate(body, {
      onSuccess: () => notifySuccess(t('profile.outbreak.saved')),
      onError: (err) => notifyError(errorMessage(err)),
    });
  return (
    <Card withBorder padding="md" maw={560} data-testid="outbreak-settings">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('profile.outbreak.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('profile.outbreak.text')}
        </Text>
        <Group justify="space-between" wrap="nowrap">
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('profile.outbreak.district')}
            </Text>
            <Text fw={500} data-testid="outbreak-district">
              {name ?? t('profile.outbreak.none')}
            </Text>
          </Stack>
          {!editing && (
            <Button variant="light" size="xs" onClick={() => setEditing(true)}>
              {t('profile.outbreak.change')}
            </Button>
          )}
        </Group>
        {editing && (
          <DistrictForm
            current={user.district ?? ''}
            suggested={user.farmer?.farm_location}
            onSaved={() => setEditing(false)}
          />
        )}
        {user.role === 'farmer' && (
          <>
            <Switch
              checked={sms}
              onChange={(e) => save({ sms_alerts: e.currentTarget.checked })}
              disabled={settings.isPending}
              label={t('profile.outbreak.smsAlerts')}
              description={t('profile.outbreak.smsAlertsHint')}
              data-testid="sms-alerts"
            />
            {/* A call that says each rust advisory (docs/decisions/0123). */}
            <Switch
              checked={user.farmer?.voice_warnings ?? false}
              onChange={(e) => save({ voice_warnings: e.currentTarget.checked })}
              disabled={settings.isPending}
              label={t('profile.outbreak.voiceWarnings')}
              description={t('profile.outbreak.voiceWarningsHint')}
              data-testid="voice-warnings"
            />
          </>
        )}
      </Stack>
    </Card>
  );
}

/**
 * Asked once of a farmer whose account has no district yet (accounts made before sign-up asked for one), on the
 * dashboard: a card, not a dialog, so nothing else on the screen is blocked. The dashboard asks with its
 * words and two buttons (app/layout/AccountLayout.tsx); this form loads on its "Choose". Their free-text farm
 * location stays. "Not now" puts it away for this user on this phone.
 */
export function DistrictPromptCard({ onClose, farmLocation }: { onClose: () => void; farmLocation?: string }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="md" mb="md" maw={640} data-testid="district-prompt">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('profile.outbreak.promptTitle')}
        </Title>
        <Text size="sm">{t('profile.outbreak.promptText')}</Text>
        <DistrictForm
          current=""
          suggested={farmLocation}
          onSaved={onClose}
          extra={
            <Button variant="subtle" onClick={onClose}>
              {t('profile.outbreak.promptLater')}
            </Button>
          }
        />
      </Stack>
    </Card>
  );
}
