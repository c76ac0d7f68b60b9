import type { ReactNode } from 'react';
import { Alert, Badge, Card, SimpleGrid, Stack, Table, Title } from '@mantine/core';
import type { UserRecord } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format.ts';

function Section({ title, rows }: { title: string; rows: [string, ReactNode][] }) {
  return (
    <Card withBorder radius="md" p="md">
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      <Table variant="vertical" layout="fixed" withRowBorders={false} verticalSpacing={6}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" w="45%" fw={500} c="dimmed">
                {label}
              </Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

/** The Account Summary of spec point 2 (the spec's "branch" is the user's organisation here). */
export function AccountSummary({ user, stale }: { user: UserRecord; stale?: boolean }) {
  const { t } = useTranslation();
  const na = t('profile.na');
  const or = (v: string | null | undefined) => (v?.trim() ? v : na);
  const p = user.profile;
  const fullName = p ? [p.firstName, p.middleName, p.lastName].filter(Boolean).join(' ') : '';
  const flag = (ok: boolean, yes: string, no: string) => (
    <Badge color={ok ? 'green' : 'gray'} variant="light">
      {ok ? yes : no}
    </Badge>
  );
  const verified = (ok: boolean) => flag(ok, t('profile.summary.verified'), t('profile.summary.unverified'));
  const a = user.account;

  const roleRows: [string, ReactNode][] | null = user.farmer
    ? [
        [t('profile.summary.farmLocation'), or(user.farmer.farm_location)],
        [t('profile.summary.farmSize'), t('profile.summary.acres', { count: user.farmer.farm_size })],
        [
          t('profile.summary.crops'),
          user.farmer.crop_types.length
            ? user.farmer.crop_types.map((c) => t(`auth.crops.${c}`, { defaultValue: c })).join(', ')
            : na,
        ],
      ]
    : user.expert
      ? [
          [t('profile.summary.areasOfExpertise'), or(user.expert.areas_of_expertise)],
          [t('profile.summary.certifications'), or(user.expert.certifications)],
          [t('profile.summary.experienceYears'), String(user.expert.experience_years)],
          [t('profile.summary.institution'), or(user.expert.institution)],
          [t('profile.summary.languagesSpoken'), or(user.expert.languages_spoken)],
        ]
      : null;

  return (
    <Stack>
      {stale ? <Alert color="yellow">{t('profile.summary.refreshFailed')}</Alert> : null}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Section
          title={t('profile.summary.user')}
          rows={[
            [t('profile.summary.fullName'), or(fullName)],
            [t('profile.summary.username'), user.username],
            [t('profile.summary.mobile'), or(user.phone)],
            [t('profile.summary.gender'), p ? t(`profile.form.genders.${p.gender}`) : na],
            [t('profile.summary.physicalAddress'), or(p?.physicalAddress)],
            [t('profile.summary.email'), user.email],
            [t('profile.form.dob'), p?.dob ? formatDate(`${p.dob}T12:00:00Z`) : na],
            [t('profile.form.occupation'), or(p?.occupation)],
          ]}
        />
        <Stack>
          <Section
            title={t('profile.summary.organisation')}
            rows={[[t('profile.summary.organisationName'), or(p?.organisationName)]]}
          />
          <Section
            title={t('profile.summary.account')}
            rows={[
              [t('profile.summary.accountNumber'), or(a.accountNumber)],
              [t('profile.summary.accountType'), t(`profile.summary.roles.${user.role}`)],
              [
                t('profile.summary.status'),
                flag(a.isActivated, t('profile.summary.active'), t('profile.summary.inactive')),
              ],
              [t('profile.summary.phone'), verified(a.isPhoneVerified)],
              [t('profile.summary.emailStatus'), verified(a.isEmailVerified)],
              [t('profile.summary.website'), or(a.website)],
            ]}
          />
        </Stack>
        {roleRows ? (
          <Section title={user.farmer ? t('profile.summary.farm') : t('profile.summary.expertise')} rows={roleRows} />
        ) : null}
      </SimpleGrid>
    </Stack>
  );
}
