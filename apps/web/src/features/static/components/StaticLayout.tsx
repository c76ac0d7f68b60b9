import '@mantine/core/styles/Container.css';
import type { ReactNode } from 'react';
import { Anchor, Box, Container, Group, Image, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../config/routes.ts';
import { session } from '../../../lib/session.ts';

/** A plain page for public texts (Terms, Contact Us), readable signed in or out. */
export function StaticLayout({ title, updated, children }: { title: string; updated?: string; children: ReactNode }) {
  const { t } = useTranslation();
  const signedIn = Boolean(session.accessToken());
  return (
    <Box mih="100vh" bg="gray.0">
      <Box component="header" bg="green.8" py="sm">
        <Container size="md">
          <Group justify="space-between">
            <Anchor component={Link} to="/" underline="never" c="white">
              <Group gap="xs">
                <Image src="/favicon.svg" w={28} h={28} alt="" />
                <Text fw={700}>{t('app.name')}</Text>
              </Group>
            </Anchor>
            <Group gap="md">
              <Anchor component={Link} to={routes.terms} c="white" size="sm">
                {t('auth.links.terms')}
              </Anchor>
              <Anchor component={Link} to={routes.contactUs} c="white" size="sm">
                {t('auth.links.contactUs')}
              </Anchor>
              <Anchor component={Link} to={signedIn ? routes.dashboard : routes.auth.login} c="white" size="sm">
                {signedIn ? t('menu.dashboard') : t('auth.links.signIn')}
              </Anchor>
            </Group>
          </Group>
        </Container>
      </Box>
      <Container size="md" py="xl" component="main">
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1}>{title}</Title>
            {updated ? (
              <Text size="sm" c="dimmed">
                {updated}
              </Text>
            ) : null}
          </Stack>
          {children}
        </Stack>
      </Container>
    </Box>
  );
}
