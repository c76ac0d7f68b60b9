import '@mantine/core/styles/SimpleGrid.css';
import { Anchor, Card, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBug, IconLock, IconMail } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { routes } from '../../../config/routes.ts';
import { StaticLayout } from '../components/StaticLayout.tsx';
import { PRIVACY_EMAIL, SUPPORT_EMAIL } from '../contacts.ts';

const channels = [
  { icon: IconMail, key: 'account', email: SUPPORT_EMAIL },
  { icon: IconLock, key: 'privacy', email: PRIVACY_EMAIL },
  { icon: IconBug, key: 'result', email: SUPPORT_EMAIL },
] as const;

export default function ContactPage() {
  const { t } = useTranslation();
  return (
    <StaticLayout title={t('contact.title')}>
      <Text>{t('contact.intro')}</Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {channels.map(({ icon: Icon, key, email }) => (
          <Card key={key} withBorder radius="md" p="md">
            <Stack gap="xs">
              <Icon size={24} aria-hidden />
              <Title order={2} size="h4">
                {t(`contact.${key}.title`)}
              </Title>
              <Text size="sm">{t(`contact.${key}.text`)}</Text>
              <Anchor href={`mailto:${email}`}>{email}</Anchor>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
      <Stack gap="xs">
        <Title order={2} size="h3">
          {t('contact.before.title')}
        </Title>
        <List spacing="xs">
          <List.Item>{t('contact.before.codes')}</List.Item>
          <List.Item>
            <Trans
              i18nKey="contact.before.password"
              components={{ link: <Anchor component={Link} to={routes.auth.forgotPassword} /> }}
            />
          </List.Item>
          <List.Item>{t('contact.before.neverSend')}</List.Item>
          <List.Item>{t('contact.before.urgent')}</List.Item>
        </List>
        <Text size="sm" c="dimmed">
          <Trans
            i18nKey="contact.privacyNotice"
            components={{ link: <Anchor component={Link} to={`${routes.terms}#privacy`} /> }}
          />
        </Text>
      </Stack>
    </StaticLayout>
  );
}
